"use client";

import { useActionState } from "react";
import { type LoginState, loginAction } from "@/lib/shop/actions/account-actions";
import { CredentialFields } from "./credential-fields";
import { FullPageRedirect } from "./full-page-redirect";

export function LoginForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<LoginState, FormData>(loginAction, {});
  const leaving = Boolean(state.redirectTo);
  return (
    <form action={action} noValidate className="stack">
      <input type="hidden" name="next" value={next} />
      <CredentialFields error={state.error} email={state.email} fieldErrors={state.fieldErrors} />
      <button type="submit" className="button button--primary" disabled={pending || leaving}>
        {pending || leaving ? "Logging in…" : "Log in"}
      </button>
      <FullPageRedirect to={state.redirectTo} message="You are logged in." />
    </form>
  );
}
