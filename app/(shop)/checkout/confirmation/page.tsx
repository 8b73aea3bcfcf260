import { PaymentStatusWatcher } from "@service-integration/kit/react";
import { settleAwaitedServiceOrder } from "@service-integration/kit/server";
import type { Metadata } from "next";
import { servicePayDeps } from "@/lib/service-adapter/service";
import { getPageSession } from "@/lib/session/session";
import { sessionCurrency } from "@/lib/session/session-data";
import { formatMoney } from "@/lib/shop/money";
import { PAID_OR_LATER, statusLabel } from "@/lib/shop/order-status";
import { latestOrderForSession } from "@/lib/shop/orders";
import { shippingMethod } from "@/lib/shop/shipping";
import { Link } from "@/lib/ui/link";
import { AddressBlock, OrderItemsTable } from "@/lib/ui/order-details";
import { TeaserSlot } from "@/lib/ui/teaser-slot";
import { TradeInAppliedAtPayment } from "@/lib/ui/trade-in-amounts";
import { TradeInNotice } from "@/lib/ui/trade-in-notice";

export const metadata: Metadata = { title: "Thank you for your order" };

/**
 * The future {merchant_success_url}: it shows the latest order of this session, so it needs no
 * query parameter (the service redirects here after its payment modal).
 */
export default async function ConfirmationPage() {
  const session = await getPageSession();
  let order = session.sessionId ? await latestOrderForSession(session.sessionId) : null;
  if (!order && session.sessionId) {
    // Arriving from the service's payment modal before the order exists (packages/kit/src/pending-order.ts).
    const awaited = await settleAwaitedServiceOrder(servicePayDeps(), {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
    });
    if (awaited === "created") order = await latestOrderForSession(session.sessionId);
    if (awaited === "waiting") {
      return (
        <>
          <h1>Confirming your payment</h1>
          <p>If you completed the payment with Service, your order appears here in a moment.</p>
          <TradeInAppliedAtPayment currency={sessionCurrency(session)} />
          <PaymentStatusWatcher pending />
        </>
      );
    }
  }
  if (!order) {
    return (
      <>
        <h1>No order yet</h1>
        <p>
          We could not find an order for this visit. <Link href="/cart">Go to your cart</Link>.
        </p>
      </>
    );
  }
  // A card order that registered (or queues) the trade-in. After Service Pay the SDK itself
  // brought the shopper here with a full page load, so its teaser already knows the offer is used.
  const tradeInUsed = order.tradeInStatus === "registered" || order.tradeInStatus === "queued";
  const method =
    order.shippingMethod === "standard" || order.shippingMethod === "express"
      ? shippingMethod(order.shippingMethod).name
      : order.shippingMethod;
  return (
    <>
      <h1>Thank you for your order</h1>
      <p className="lead">
        Order <strong data-testid="order-number">{order.number}</strong> is{" "}
        <strong data-testid="order-status">{statusLabel(order.status)}</strong>. A confirmation goes
        to {order.email}.
      </p>
      <TradeInNotice status={order.tradeInStatus} message={order.tradeInMessage} />
      {order.paymentMethod === "service_pay" ? (
        <>
          <PaymentStatusWatcher pending={order.status === "pending"} />
          {order.status === "pending" ? (
            // Before the payment's notification: the discount the accepted valuation allows,
            // already on the pending order (docs/decisions/delivery-in-the-cart.md), else what
            // the SDK says the payment applied.
            order.tradeInDiscount > 0 ? (
              <p className="trade-in-line" data-testid="trade-in-applied">
                Your trade-in discount:{" "}
                <strong>−{formatMoney(order.tradeInDiscount, order.currency)}</strong>
              </p>
            ) : (
              <TradeInAppliedAtPayment currency={order.currency} />
            )
          ) : order.tradeInDiscount > 0 && PAID_OR_LATER.has(order.status) ? (
            <p>
              Paid with Service. Your trade-in discount:{" "}
              <strong data-testid="order-trade-in-discount">
                −{formatMoney(order.tradeInDiscount, order.currency)}
              </strong>
            </p>
          ) : null}
        </>
      ) : null}
      {/* The card order used the offer: the SDK on this page still holds it (it reads its state
          once per page load and the checkout came here without one), so no teaser advertises it. */}
      {tradeInUsed ? null : <TeaserSlot type="thank-you" />}
      <OrderItemsTable order={order} />
      <div className="address-pair">
        <AddressBlock title="Billing address" address={order.billingAddress} />
        <AddressBlock title={`Delivery (${method})`} address={order.shippingAddress} />
      </div>
      <p>
        <Link href="/" className="button">
          Continue shopping
        </Link>
      </p>
    </>
  );
}
