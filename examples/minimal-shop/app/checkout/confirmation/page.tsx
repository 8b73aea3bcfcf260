import { currentSession } from "@mini/lib/current";
import { service } from "@mini/lib/service/wiring";
import { euro, latestOrder } from "@mini/lib/shop";
import { PaymentStatusWatcher } from "@service-integration/kit/react";
import { settleAwaitedServiceOrder } from "@service-integration/kit/server";

const LABELS: Record<string, string> = {
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  on_hold: "On hold: the payment does not match",
};

// {merchant_success_url}: finishes an order the webhook reached first, then shows the newest one.
export default async function Confirmation() {
  const session = await currentSession();
  const awaited = await settleAwaitedServiceOrder(service().servicePay, {
    sessionId: session.sessionId,
    customerId: session.customerId ?? null,
  });
  const order = await latestOrder(session.sessionId);
  const pending = awaited === "waiting" || order?.status === "awaiting_payment";
  return (
    <>
      <h1>Thank you</h1>
      {order ? (
        <dl>
          <dt>Order</dt>
          <dd data-testid="order-number">{order.number}</dd>
          <dt>Status</dt>
          <dd data-testid="order-status">{LABELS[order.status] ?? order.status}</dd>
          <dt>Paid with</dt>
          <dd>{order.paymentMethod === "card" ? "Card" : "Service Pay"}</dd>
          <dt>Total</dt>
          <dd data-testid="order-total">{euro(order.total)}</dd>
          {order.tradeInStatus ? (
            <>
              <dt>Trade-in</dt>
              <dd data-testid="trade-in-status">
                {order.tradeInStatus} {order.tradeInMessage ?? ""}
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p>No order yet.</p>
      )}
      <PaymentStatusWatcher pending={pending} />
      <div className="service-teaser" data-type="thank-you" />
    </>
  );
}
