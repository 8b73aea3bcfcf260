// The order webhook body (the contract leaves its shape open; decision in emulator/README.md,
// "Webhooks"). The body is serialised once when the notification is created, so every retry and
// redelivery sends the same bytes with the same signature.
import type { Order, WebhookForm } from "../domain";

export type WebhookEvent = "order.payment_completed" | "order.status_updated";

export type NotificationFields = {
  id: string;
  event: WebhookEvent;
  created_at: string;
  order: Pick<
    Order,
    "order_id" | "cart_id" | "status" | "amount" | "currency" | "trade_in_discount" | "customer_id"
  >;
};

export function webhookBody(fields: NotificationFields, form: WebhookForm): string {
  const { order } = fields;
  const common = {
    id: fields.id,
    event: fields.event,
    created_at: fields.created_at,
    order_id: order.order_id,
  };
  const money = {
    amount: order.amount,
    currency: order.currency,
    trade_in_discount: order.trade_in_discount,
    customer_id: order.customer_id,
  };
  // Contract, Order: one form of webhook body wraps cart_id and status inside `data`.
  const body =
    form === "wrapped"
      ? { ...common, ...money, data: { cart_id: order.cart_id, status: order.status } }
      : { ...common, cart_id: order.cart_id, status: order.status, ...money };
  return JSON.stringify(body);
}
