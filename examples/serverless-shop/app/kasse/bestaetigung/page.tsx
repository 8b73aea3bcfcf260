import { PaymentStatusWatcher } from "@service-integration/kit/react";
import { settleAwaitedServiceOrder } from "@service-integration/kit/server";
import { currentShopper } from "@sls/lib/current";
import { service } from "@sls/lib/service/wiring";
import { euro, latestOrder } from "@sls/lib/shop";

const STATUS: Record<string, string> = {
  awaiting_payment: "Zahlung ausstehend",
  paid: "Bezahlt",
  on_hold: "Angehalten: Die Zahlung passt nicht zur Bestellung",
};
const TRADE_IN: Record<string, string> = {
  registered: "registriert",
  queued: "wird nachgereicht",
  not_applied: "nicht angewendet",
};

// {merchant_success_url}: finishes an order the webhook reached first, then shows the newest one.
export default async function Bestaetigung() {
  const { sessionId, customerId } = await currentShopper();
  const awaited = await settleAwaitedServiceOrder(service().servicePay, {
    sessionId,
    customerId: customerId ?? null,
  });
  const order = await latestOrder(sessionId);
  const pending = awaited === "waiting" || order?.status === "awaiting_payment";
  return (
    <>
      <h1>Vielen Dank</h1>
      {order ? (
        <dl className="karte">
          <dt>Bestellung</dt>
          <dd data-testid="order-number">{order.number}</dd>
          <dt>Status</dt>
          <dd data-testid="order-status">{STATUS[order.status] ?? order.status}</dd>
          <dt>Bezahlt mit</dt>
          <dd>{order.paymentMethod === "card" ? "Karte" : "Dienst"}</dd>
          <dt>Summe</dt>
          <dd data-testid="order-total">{euro(order.total)}</dd>
          {order.tradeInStatus ? (
            <>
              <dt>Inzahlungnahme</dt>
              <dd data-testid="trade-in-status" data-outcome={order.tradeInStatus}>
                {TRADE_IN[order.tradeInStatus] ?? order.tradeInStatus}
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p>Noch keine Bestellung.</p>
      )}
      <PaymentStatusWatcher
        pending={pending}
        messages={{
          waiting:
            "Wir warten auf die Bestätigung des Dienstes. Diese Seite aktualisiert sich selbst.",
          confirmed: "Zahlung bestätigt.",
        }}
      />
      <div className="service-teaser" data-type="thank-you" />
    </>
  );
}
