export default async function Anmelden({
  searchParams,
}: {
  searchParams: Promise<{ fehler?: string }>;
}) {
  return (
    <>
      <form method="post" action="/konto" className="karte">
        <h1>Anmelden</h1>
        <label>
          E-Mail <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Passwort{" "}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {(await searchParams).fehler ? <p role="alert">E-Mail oder Passwort ist falsch.</p> : null}
        <button type="submit" name="action" value="anmelden">
          Anmelden
        </button>
      </form>
      <form method="post" action="/konto" className="karte">
        <h2>Neues Konto</h2>
        <label>
          Name <input name="name" autoComplete="name" required />
        </label>
        <label>
          E-Mail-Adresse <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Neues Passwort{" "}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={12}
            required
          />
        </label>
        <button type="submit" name="action" value="registrieren">
          Konto anlegen
        </button>
      </form>
    </>
  );
}
