"use client";

import { useActionState } from "react";
import { type LogoutState, logoutAction } from "@/lib/shop/actions/account-actions";
import { FullPageRedirect } from "./full-page-redirect";

export function LogoutForm() {
  const [state, action, pending] = useActionState<LogoutState>(logoutAction, {});
  const leaving = Boolean(state.redirectTo);
  return (
    <form action={action}>
      <button type="submit" className="button" disabled={pending || leaving}>
        {pending || leaving ? "Logging out…" : "Log out"}
      </button>
      <FullPageRedirect to={state.redirectTo} message="You are logged out." />
    </form>
  );
}
