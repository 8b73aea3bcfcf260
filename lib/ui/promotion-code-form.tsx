"use client";

import { useActionState } from "react";
import { applyPromotionCodeAction, type PromotionCodeState } from "@/lib/shop/actions/cart-actions";

const initial: PromotionCodeState = { status: "idle", message: "" };

/** The cart's promotion code field; the server says whether the code applies, and why not. */
export function PromotionCodeForm() {
  const [state, action, pending] = useActionState(applyPromotionCodeAction, initial);
  return (
    <form action={action} className="promotion-code">
      <div className="field field--inline">
        <label htmlFor="promotion-code">Promotion code</label>
        <input
          id="promotion-code"
          name="code"
          autoComplete="off"
          maxLength={32}
          aria-describedby="promotion-code-status"
        />
      </div>
      <button
        type="submit"
        className="button"
        aria-disabled={pending}
        onClick={(event) => {
          if (pending) event.preventDefault();
        }}
      >
        {pending ? "Applying…" : "Apply"}
      </button>
      <p
        id="promotion-code-status"
        role="status"
        className={`form-status form-status--${state.status === "applied" ? "added" : state.status}`}
        data-testid="promotion-code-status"
      >
        {state.message}
      </p>
    </form>
  );
}
