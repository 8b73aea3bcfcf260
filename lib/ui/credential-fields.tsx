import { Field } from "./field";

/**
 * The email and password of a login form (the shopper's and the back office's), with the form's
 * error above them. `email` refills the address after a failed attempt; the password never is.
 */
export function CredentialFields({
  error,
  email,
  fieldErrors,
}: {
  error?: string | undefined;
  email?: string | undefined;
  fieldErrors?: { email?: string | undefined; password?: string | undefined } | undefined;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="alert alert--error">
          {error}
        </p>
      ) : null}
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        defaultValue={email}
        error={fieldErrors?.email}
        required
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={fieldErrors?.password}
        required
      />
    </>
  );
}
