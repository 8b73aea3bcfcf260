"use client";

import { useActionState } from "react";
import {
  type AdminLoginState,
  adminLoginAction,
  changeStatusAction,
  type StatusChangeState,
} from "@/lib/shop/actions/admin-actions";
import { CredentialFields } from "./credential-fields";
import { Field } from "./field";

export function AdminLoginForm() {
  const [state, action, pending] = useActionState<AdminLoginState, FormData>(adminLoginAction, {});
  return (
    <form action={action} noValidate className="stack">
      <CredentialFields error={state.error} email={state.email} />
      <button type="submit" className="button button--primary" disabled={pending}>
        Sign in
      </button>
    </form>
  );
}

export function StatusChangeForm({
  orderId,
  options,
}: {
  orderId: string;
  options: { value: string; label: string }[];
}) {
  const [state, action, pending] = useActionState<StatusChangeState, FormData>(
    changeStatusAction,
    {},
  );
  if (options.length === 0) return <p className="muted">This status is final.</p>;
  return (
    <form action={action} className="stack">
      <input type="hidden" name="orderId" value={orderId} />
      <div className="field">
        <label htmlFor="to">New status</label>
        <select id="to" name="to" required>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <Field name="note" label="Note" />
      <button type="submit" className="button" disabled={pending}>
        Change status
      </button>
      <p role="status" className={state.error ? "field__error" : "muted"}>
        {state.error ?? (state.ok ? "Status changed." : "")}
      </p>
    </form>
  );
}
