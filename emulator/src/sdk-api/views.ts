// Service-side records → what the browser SDK sees.

import type { TradeInView } from "../../sdk/wire";
import type { TradeInItem } from "../domain";

export function tradeInView(item: TradeInItem): TradeInView {
  return {
    id: item.id,
    device: item.device.name,
    value: item.value,
    currency: item.currency,
    valid_until: new Date(item.valid_until).toISOString(),
    status: item.status,
  };
}

/**
 * What identifies a cart for "did the cart change during the session" (contract: Session
 * version): its id, currency, lines and totals, not the order of keys in the merchant's JSON.
 */
export function cartFingerprint(cart: {
  id: string;
  currency: string;
  total: number;
  items: { id: string; quantity: number; total: number }[];
}): string {
  const lines = cart.items.map((i) => `${i.id}x${i.quantity}=${i.total}`).sort();
  return `${cart.id}|${cart.currency}|${cart.total}|${lines.join(",")}`;
}
