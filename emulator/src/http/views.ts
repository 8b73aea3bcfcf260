import type { Clock } from "../clock";
import type { Merchant, Order, TradeInItem } from "../domain";

// The JSON bodies the service API answers with. Fields the contract leaves "not shown" are
// the emulator's choice, documented in emulator/README.md.

export function merchantView(m: Merchant) {
  return {
    id: m.id,
    name: m.name,
    products: m.products,
    currency: m.currency,
    minimums: { tradein: m.minimums.tradein, ep1: m.minimums.ep1 },
    allowed_origins: [...m.allowed_origins],
    webhook_base: m.webhook_base,
    webhook_form: m.webhook_form,
    session_versioning: m.session_versioning,
    session_id_form: m.session_id_form,
    tradein_item_form: m.tradein_item_form,
  };
}

/** `sessionId`: the session_id of the version the item belongs to, in the merchant's form. */
export function tradeInView(item: TradeInItem, clock: Clock, sessionId: string) {
  return {
    id: item.id,
    status: item.status,
    value: item.value,
    currency: item.currency,
    valid_until: clock.iso(item.valid_until),
    session_id: sessionId,
    device: { ...item.device },
    condition: { answers: { ...item.condition.answers }, factor: item.condition.factor },
    created_at: clock.iso(item.created_at),
    accepted_at: item.accepted_at === undefined ? null : clock.iso(item.accepted_at),
    used_at: item.used_at === undefined ? null : clock.iso(item.used_at),
  };
}

export function orderView(o: Order, clock: Clock) {
  return {
    id: o.id,
    order_id: o.order_id,
    cart_id: o.cart_id,
    status: o.status,
    amount: o.amount,
    currency: o.currency,
    trade_in_discount: o.trade_in_discount,
    customer_id: o.customer_id,
    payment: o.payment,
    tradein_item: o.tradein_item_id,
    created_at: clock.iso(o.created_at),
    updated_at: clock.iso(o.updated_at),
  };
}
