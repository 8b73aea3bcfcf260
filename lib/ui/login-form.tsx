"use client";

import { useActionState } from "react";
import { type LoginState, loginAction } from "@/lib/shop/actions/account-actions";
import { Field } from "./field";

export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, {});
  return (
    <form action={action} noValidate className="stack">
      {state.error ? (
        <p role="alert" className="alert alert--error">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="next" value={next} />
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        defaultValue={state.email}
        error={state.fieldErrors?.email}
        required
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={state.fieldErrors?.password}
        required
      />
      <button type="submit" className="button button--primary" disabled={pending}>
        {pending ? "Logging in…" : "Log in"}
      </button>
    </form>
  );
}
