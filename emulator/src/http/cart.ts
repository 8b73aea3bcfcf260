import { z } from "zod";
import type { Cart } from "../domain";
import { describeDecimal, findDecimalNotation } from "./notation";

// The Cart as the contract defines it (Resources: Cart, Cart item, Discount), sent Base64
// encoded. Every amount is an integer number of cents; a decimal is rejected.

export const cents = z
  .number()
  .int("must be an integer number of cents")
  .min(0, "must not be negative");

const cartItem = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  quantity: z.number().int("must be an integer").min(1),
  price: cents,
  tax: cents,
  total: cents,
});

const discount = z.object({ id: z.string().min(1), name: z.string(), total: cents });

export const cartSchema = z.object({
  id: z.string().min(1),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as EUR"),
  items: z.array(cartItem).min(1, "must hold at least one item"),
  price: cents,
  tax: cents,
  discounts: z.array(discount).optional(),
  total: cents,
});

/** Standard or URL-safe Base64, padding optional, whitespace ignored. */
const BASE64 = /^(?:[A-Za-z0-9+/]|[A-Za-z0-9_-])*={0,2}$/;

export type CartResult = { ok: true; cart: Cart } | { ok: false; description: string };

/** Decodes Base64(JSON cart) and checks its schema and arithmetic. */
export function decodeCart(encoded: string): CartResult {
  const compact = encoded.replace(/\s+/g, "");
  if (
    compact.length === 0 ||
    !BASE64.test(compact) ||
    compact.replace(/=+$/, "").length % 4 === 1
  ) {
    return { ok: false, description: "cart is not valid Base64." };
  }
  const text = Buffer.from(compact, "base64").toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, description: "cart is Base64 but not of JSON." };
  }
  // The decoded JSON text is where `15000.00` would hide (JSON.parse drops the `.00`).
  const decimal = findDecimalNotation(text);
  if (decimal) return { ok: false, description: `cart.${describeDecimal(decimal)}` };
  return checkCart(json);
}

export function checkCart(value: unknown): CartResult {
  const parsed = cartSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, description: `cart is not a valid Cart: ${describeIssues(parsed.error)}` };
  }
  const cart = parsed.data as Cart;
  const problems: string[] = [];
  let price = 0;
  let tax = 0;
  for (const item of cart.items) {
    if (item.total !== item.price * item.quantity + item.tax) {
      problems.push(`item ${item.id}: total must be price * quantity + tax`);
    }
    price += item.price * item.quantity;
    tax += item.tax;
  }
  if (cart.price !== price) problems.push("price must be the sum of price * quantity of the items");
  if (cart.tax !== tax) problems.push("tax must be the sum of the items' tax");
  const discounts = (cart.discounts ?? []).reduce((sum, d) => sum + d.total, 0);
  if (cart.total !== cart.price + cart.tax - discounts) {
    problems.push("total must be price + tax - sum(discounts.total)");
  }
  if (problems.length > 0) {
    return { ok: false, description: `cart arithmetic does not add up: ${problems.join("; ")}.` };
  }
  return { ok: true, cart };
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "body"}: ${i.message}`)
    .join("; ");
}
