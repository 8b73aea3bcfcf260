import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireAdmin } from "@/lib/auth/admin";
import { manualNextStatuses, STATUS_LABELS, statusLabel } from "@/lib/shop/order-status";
import { getOrder } from "@/lib/shop/orders";
import { StatusChangeForm } from "@/lib/ui/admin-forms";
import {
  historySentence,
  localDateTime,
  paymentLabel,
  shippingLabel,
  tradeInSummary,
} from "@/lib/ui/labels";
import { Link } from "@/lib/ui/link";
import { AddressBlock, OrderItemsTable } from "@/lib/ui/order-details";
import { ServiceOrderUpdates } from "@/lib/ui/service-order-updates";
import { TradeInRegistrationFacts } from "@/lib/ui/trade-in-registration-facts";

export const metadata: Metadata = { title: "Order" };

export default async function AdminOrderPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin();
  const order = await getOrder((await params).id);
  if (!order) notFound();
  return (
    <>
      <p>
        <Link href="/admin">← All orders</Link>
      </p>
      <h1>Order {order.number}</h1>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd data-testid="admin-order-status">{statusLabel(order.status)}</dd>
        </div>
        <div>
          <dt>Placed</dt>
          <dd>
            <time dateTime={order.createdAt.toISOString()}>{localDateTime(order.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Customer</dt>
          <dd>
            {order.email}
            {order.customer ? " (account)" : " (guest)"}
          </dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>{paymentLabel(order.paymentMethod)}</dd>
        </div>
        <div>
          <dt>Delivery</dt>
          <dd>{shippingLabel(order.shippingMethod)}</dd>
        </div>
        <div>
          <dt>Cart id</dt>
          <dd>
            <code>{order.cartId}</code>
          </dd>
        </div>
        <div>
          <dt>Service order id</dt>
          <dd>{order.serviceOrderId ?? "—"}</dd>
        </div>
        <div>
          <dt>Trade-in</dt>
          <dd data-testid="admin-trade-in-summary">{tradeInSummary(order) || "None"}</dd>
        </div>
        <div>
          <dt>Trade-in (register-purchase)</dt>
          <dd data-testid="admin-trade-in">
            <TradeInRegistrationFacts orderId={order.id} />
          </dd>
        </div>
      </dl>
      <h2>Items and amounts</h2>
      <OrderItemsTable order={order} />
      <div className="address-pair">
        <AddressBlock title="Billing address" address={order.billingAddress} />
        <AddressBlock title="Delivery address" address={order.shippingAddress} />
      </div>
      <h2>Status history</h2>
      <ol className="history" data-testid="status-history">
        {order.history.map((h) => (
          <li key={h.id}>
            <time dateTime={h.createdAt.toISOString()}>{localDateTime(h.createdAt)}</time>:{" "}
            <span title={h.note || undefined}>{historySentence(h, statusLabel)}</span>
          </li>
        ))}
      </ol>
      <ServiceOrderUpdates order={order} />
      <h2>Change status by hand</h2>
      <p className="alert" data-testid="manual-status-warning">
        A change made here is recorded in the shop only: it does not notify the service.
        {order.paymentMethod === "service_pay"
          ? " A Service Pay order becomes Paid only through the service's payment notification."
          : ""}
      </p>
      <StatusChangeForm
        orderId={order.id}
        options={manualNextStatuses(order).map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
      />
    </>
  );
}
