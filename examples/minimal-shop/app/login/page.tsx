"use client";

import { signInAction } from "@mini/app/actions";
import { useActionState } from "react";

export default function Login() {
  const [error, action] = useActionState(signInAction, null);
  return (
    <form action={action}>
      <h1>Sign in</h1>
      <label>
        Email <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error ? <p role="alert">{error}</p> : null}
      <button type="submit">Sign in</button>
    </form>
  );
}
