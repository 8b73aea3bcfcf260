"use client";

import { useActionState } from "react";
import {
  type OrderUpdateState,
  orderUpdateAction,
  type ReconcileState,
  reconcileAction,
} from "@/lib/shop/actions/order-update-actions";

export interface UpdatableItem {
  productId: string;
  name: string;
  quantity: number;
}

function Outcome({ state }: { state: OrderUpdateState }) {
  if (state.error) {
    return (
      <p role="alert" className="alert alert--error" data-testid="order-update-error">
        {state.error}
      </p>
    );
  }
  return (
    <p role="status" className="muted" data-testid="order-update-result">
      {state.message ?? ""}
    </p>
  );
}

/**
 * The post-purchase updates of a service order (contract: POST /payments/orders/update): whole
 * shipment or return, partial shipment or return of chosen items, and an edited cart. One form,
 * so the outcome of the last update is shown in one place; each button names its update type.
 */
/** Statuses after which shipping is done, and after which nothing more can be sent. */
const SHIPPED_OR_LATER = new Set(["shipped", "completed", "partially_returned", "returned"]);
const FINAL = new Set(["returned", "cancelled"]);

export function OrderUpdateForms({
  orderId,
  status,
  serviceOrderId,
  items,
  canUpdate,
}: {
  orderId: string;
  /** The order's status: actions already done are not offered again. */
  status: string;
  serviceOrderId: string;
  items: UpdatableItem[];
  /** false when the shop's API user lacks scope `updates`: said up front, still allowed to try */
  canUpdate: boolean;
}) {
  const [state, action, pending] = useActionState<OrderUpdateState, FormData>(
    orderUpdateAction,
    {},
  );
  if (FINAL.has(status)) {
    return (
      <div className="stack" data-testid="order-updates">
        <p className="muted">
          Nothing more to send: the order is {status === "returned" ? "returned" : "cancelled"}.
        </p>
        <Outcome state={state} />
      </div>
    );
  }
  const shipped = SHIPPED_OR_LATER.has(status);
  return (
    <div className="stack" data-testid="order-updates">
      <p className="muted">
        Sent to the service as order <code>{serviceOrderId}</code>.
        {canUpdate
          ? ""
          : " The shop's API user does not have the “updates” scope, so the service will refuse these updates."}
      </p>
      <form action={action} className="stack" aria-label="Whole order">
        <input type="hidden" name="orderId" value={orderId} />
        <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
          {shipped ? null : (
            <button
              type="submit"
              name="update_type"
              value="shipped"
              className="button"
              disabled={pending}
            >
              Mark shipped
            </button>
          )}
          <button
            type="submit"
            name="update_type"
            value="returned"
            className="button"
            disabled={pending}
          >
            Mark returned
          </button>
        </div>
      </form>
      <form action={action} className="stack" aria-label="Chosen items">
        <input type="hidden" name="orderId" value={orderId} />
        <fieldset>
          <legend>Items for a partial shipment or return, or the edited cart</legend>
          {items.map((item) => (
            <div className="field" key={item.productId}>
              <label htmlFor={`qty-${item.productId}`}>
                {item.name} (ordered {item.quantity})
              </label>
              <input
                id={`qty-${item.productId}`}
                name={`qty_${item.productId}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={item.quantity}
                step={1}
                defaultValue={0}
              />
            </div>
          ))}
        </fieldset>
        <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
          {shipped ? null : (
            <button
              type="submit"
              name="update_type"
              value="partial_shipment"
              className="button"
              disabled={pending}
            >
              Send partial shipment
            </button>
          )}
          <button
            type="submit"
            name="update_type"
            value="partial_return"
            className="button"
            disabled={pending}
          >
            Send partial return
          </button>
          <button
            type="submit"
            name="update_type"
            value="cart_update"
            className="button"
            disabled={pending}
          >
            Send as updated cart
          </button>
        </div>
      </form>
      <Outcome state={state} />
    </div>
  );
}

/** The back office's reconciliation button; the report lists what changed. */
export function ReconcileButton() {
  const [state, action, pending] = useActionState<ReconcileState, FormData>(reconcileAction, {});
  return (
    <form action={action} className="stack" aria-label="Reconcile with the service">
      <button type="submit" className="button" disabled={pending}>
        Reconcile with the service
      </button>
      {state.error ? (
        <p role="alert" className="alert alert--error">
          {state.error}
        </p>
      ) : (
        <ul role="status" className="muted" data-testid="reconcile-report">
          {(state.report ?? []).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
