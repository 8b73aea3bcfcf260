"use client";

import { useActionState } from "react";
import { type AddToCartState, addToCartAction } from "@/lib/shop/actions/cart-actions";
import { Link } from "@/lib/ui/link";

const initial: AddToCartState = { status: "idle", message: "" };

export function AddToCartForm({ productId, choices }: { productId: string; choices: number[] }) {
  const [state, action, pending] = useActionState(addToCartAction, initial);
  return (
    <form action={action} className="add-to-cart">
      <input type="hidden" name="productId" value={productId} />
      <div className="field field--inline">
        <label htmlFor="quantity">Quantity</label>
        <select id="quantity" name="quantity" defaultValue="1">
          {choices.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      {/* aria-disabled, not disabled: a disabled button loses the keyboard focus to <body>
          while the cart is updated; a second press while pending is ignored instead. */}
      <button
        type="submit"
        className="button button--primary"
        aria-disabled={pending}
        onClick={(event) => {
          if (pending) event.preventDefault();
        }}
      >
        {pending ? "Adding…" : "Add to cart"}
      </button>
      <p role="status" className={`form-status form-status--${state.status}`}>
        {state.message}
        {state.status === "added" ? (
          <>
            {" "}
            <Link href="/cart">View cart</Link>
          </>
        ) : null}
      </p>
    </form>
  );
}
