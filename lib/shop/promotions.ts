// Promotion codes in the cart (docs/decisions/discounts.md). Pure: the rules of a code, judged
// against a cart's currency, its items' price and tax, the codes already applied and the time.
// What comes out is the cart's discounts (contract: Resources › Discount: id, name, total in
// integer cents); lib/shop/money.ts takes them off through its one formula.
import { z } from "zod";
import { type Currency, formatMoney, percentOf, sumCents } from "./money";

/** A promotion code as the shop stores it (the PromotionCode model). */
export interface PromotionRule {
  code: string;
  name: string;
  kind: string;
  percent: number | null;
  amount: number | null;
  currency: string | null;
  minimum: number | null;
  expiresAt: Date | null;
}

/** A cart-level discount as the shop shows and stores it: the contract's Discount and its code. */
export interface CartDiscount {
  /** the contract Discount's id: "promo:<code>" */
  id: string;
  code: string;
  name: string;
  total: number;
}

/** The most codes one cart holds (a bound on what a shopper can make the shop store and judge). */
export const MAX_PROMOTION_CODES = 3;

/** What a shopper types: letters, digits and dashes, 3 to 32 of them, case ignored. */
export const promotionCodeSchema = z
  .string()
  .trim()
  .min(3, "Enter a promotion code.")
  .max(32, "That is not a promotion code.")
  .regex(/^[A-Za-z0-9-]+$/, "That is not a promotion code.")
  .transform((code) => code.toUpperCase());

export type PromotionRefusal =
  | "unknown"
  | "expired"
  | "wrong_currency"
  | "below_minimum"
  | "too_large"
  | "already_applied"
  | "too_many";

export type PromotionJudgement =
  | { ok: true; discount: CartDiscount }
  | { ok: false; reason: PromotionRefusal; message: string };

interface CartForPromotion {
  currency: Currency;
  /** the items' price and tax (delivery excluded), cents */
  itemsTotal: number;
}

/**
 * Whether `rule` (null: no such code) takes anything off this cart, and how much. `before` is
 * what the codes judged earlier already take off: together they never exceed the items' price
 * and tax (a larger discount is refused, never clamped: contract, Cart, total ≥ 0).
 */
export function judgePromotion(
  typed: string,
  rule: PromotionRule | null,
  cart: CartForPromotion,
  now: Date,
  before = 0,
): PromotionJudgement {
  const code = typed.toUpperCase();
  const refuse = (reason: PromotionRefusal, message: string): PromotionJudgement => ({
    ok: false,
    reason,
    message,
  });
  if (!rule) return refuse("unknown", `${code} is not a promotion code of this shop.`);
  if (rule.expiresAt && rule.expiresAt.getTime() <= now.getTime()) {
    return refuse("expired", `${rule.code} has expired.`);
  }
  if (rule.currency && rule.currency !== cart.currency) {
    return refuse(
      "wrong_currency",
      `${rule.code} is for carts in ${rule.currency}; your cart is in ${cart.currency}.`,
    );
  }
  if (rule.minimum !== null && cart.itemsTotal < rule.minimum) {
    return refuse(
      "below_minimum",
      `${rule.code} needs items worth ${formatMoney(rule.minimum, cart.currency)} or more; your items come to ${formatMoney(cart.itemsTotal, cart.currency)}.`,
    );
  }
  const total = amountOf(rule, cart.itemsTotal);
  if (total === null)
    return refuse("unknown", `${rule.code} is not a promotion code of this shop.`);
  if (sumCents([before, total]) > cart.itemsTotal) {
    return refuse(
      "too_large",
      `${rule.code} would take off more than your items cost (${formatMoney(cart.itemsTotal, cart.currency)}).`,
    );
  }
  return {
    ok: true,
    discount: { id: `promo:${rule.code}`, code: rule.code, name: rule.name, total },
  };
}

/** The code's amount on items worth `itemsTotal`, or null for a rule the shop cannot read. */
function amountOf(rule: PromotionRule, itemsTotal: number): number | null {
  if (rule.kind === "percent" && rule.percent !== null && rule.percent > 0 && rule.percent <= 100) {
    return percentOf(itemsTotal, rule.percent);
  }
  if (rule.kind === "amount" && rule.amount !== null && rule.currency !== null) {
    return Number.isSafeInteger(rule.amount) && rule.amount > 0 ? rule.amount : null;
  }
  return null;
}

/** A code applied to the cart that takes nothing off now (expired since, currency changed…). */
export interface IdlePromotion {
  code: string;
  message: string;
}

/**
 * The discounts of a cart's applied codes, in the order they were applied, each judged against
 * the cart as it is now; those that no longer apply are listed with why, and take nothing off.
 */
export function cartDiscounts(
  applied: readonly { code: string; rule: PromotionRule | null }[],
  cart: CartForPromotion,
  now: Date,
): { discounts: CartDiscount[]; idle: IdlePromotion[] } {
  const discounts: CartDiscount[] = [];
  const idle: IdlePromotion[] = [];
  for (const { code, rule } of applied.slice(0, MAX_PROMOTION_CODES)) {
    const before = sumCents(discounts.map((d) => d.total));
    const judged = judgePromotion(code, rule, cart, now, before);
    if (judged.ok) discounts.push(judged.discount);
    else idle.push({ code, message: judged.message });
  }
  return { discounts, idle };
}
