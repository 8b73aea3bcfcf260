export default async function Login({
  searchParams,
}: {
  searchParams: Promise<{ failed?: string }>;
}) {
  return (
    <form method="post" action="/session">
      <h1>Sign in</h1>
      <label>
        Email <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {(await searchParams).failed ? <p role="alert">Wrong email or password.</p> : null}
      <button type="submit">Sign in</button>
    </form>
  );
}
