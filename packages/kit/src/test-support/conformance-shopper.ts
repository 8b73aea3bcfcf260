// Conformance checks of the session identity and the shopper source (SessionIdentity, ShopperSource).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { cartOfLines } from "../cart.js";
import type { ShopperIdentity } from "../shop-ports.js";
import { cartIdOf, createPendingOrderOf, pendingOrder } from "./conformance-helpers.js";
import { type ConformanceHost, SHOP_BASE_URL } from "./conformance-host.js";
import { KNOWN_VALUATION, keep } from "./conformance-kept-checkout.js";

// ---------------------------------------------------------------------------------------------
// The session identity and the merchant endpoints' view of the shop

export const requestWith = (cookie?: string) =>
  new Request(`${SHOP_BASE_URL}/callbacks/shopper_data`, cookie ? { headers: { cookie } } : {});

/** The identity as a plain object: an absent customer and `customerId: undefined` alike. */
export const identityOf = (who: ShopperIdentity | null) =>
  who && { sessionId: who.sessionId, salt: who.salt, customerId: who.customerId ?? null };

export async function sessionIdentityRead(host: ConformanceHost) {
  // Contract, Authentication 7: a callback without the shopper's own cookie is anonymous; a
  // read never makes or renews a session (shop-ports.ts, SessionIdentity).
  expect(await host.identity.ofRequest(requestWith()), "without the shopper's cookie").toBeNull();
  expect(
    await host.identity.ofRequest(requestWith("unrelated=1")),
    "without the shopper's cookie (another cookie only)",
  ).toBeNull();
  const guest = await host.issueSession();
  expect(guest.identity.sessionId, "issueSession: a session id").toBeTruthy();
  expect(guest.identity.salt, "issueSession: a salt").toBeTruthy();
  const first = await host.identity.ofRequest(requestWith(guest.cookie));
  expect(identityOf(first), "the identity the host issued").toEqual(identityOf(guest.identity));
  const again = await host.identity.ofRequest(requestWith(guest.cookie));
  expect(identityOf(again), "read twice: the same identity").toEqual(identityOf(first));
  const other = await host.issueSession();
  expect(other.identity.sessionId, "one identity per session, never shared").not.toBe(
    guest.identity.sessionId,
  );
  const customer = await host.seedCustomer();
  const signedIn = await host.issueSession(customer.id);
  expect(
    identityOf(await host.identity.ofRequest(requestWith(signedIn.cookie))),
    "the signed-in customer's identity",
  ).toEqual(identityOf({ ...signedIn.identity, customerId: customer.id }));
}

export async function shopperCustomer(host: ConformanceHost) {
  const customer = await host.seedCustomer();
  expect(await host.shopper.customer(customer.id), "a known customer's fields").toEqual(customer);
  expect(await host.shopper.customer(`unknown-${randomUUID()}`), "an unknown customer").toBeNull();
}

export async function shopperOpenCart(host: ConformanceHost) {
  expect(
    await host.shopper.openCart(`unknown-${randomUUID()}`, SHOP_BASE_URL),
    "an unknown session's cart",
  ).toBeNull();
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const lines = await host.shopper.openCart(cart.sessionId, SHOP_BASE_URL);
  if (!lines) throw new Error("openCart gives null for the seeded session's open cart");
  expect(lines.id, "the open cart's id (the checkout's cart id)").toBe(cartId);
  expect(lines.currency, "the cart's currency").toBe(cart.currency);
  expect(lines.items.length, "the cart's lines").toBeGreaterThan(0);
  // The contract Cart of these lines with the chosen delivery owes what the order will owe:
  // integer cents throughout (cartOfLines throws on a line that is not).
  const delivery = await host.shopper.shippingMethod(cart.details.shippingMethod, cart.currency);
  const contractCart = cartOfLines({ ...lines, delivery });
  expect(contractCart.total, "the lines and delivery owe seedOpenCart's `owes`").toBe(cart.owes);
  await createPendingOrderOf(host, cart, cartId);
  expect(
    await host.shopper.openCart(cart.sessionId, SHOP_BASE_URL),
    "the cart is an order: no open cart",
  ).toBeNull();
}

export async function shopperDelivery(host: ConformanceHost) {
  const { cart, order } = await pendingOrder(host);
  const chosen = await host.shopper.shippingMethod(cart.details.shippingMethod, cart.currency);
  expect(chosen.id, "the delivery asked for").toBe(cart.details.shippingMethod);
  expect(chosen.price, "what the order charged for it, in the cart's currency").toBe(
    order.shippingPrice,
  );
  expect(Number.isSafeInteger(chosen.tax ?? 0), "its tax in integer cents").toBe(true);
  const fallback = await host.shopper.shippingMethod(
    host.shopper.defaultShippingMethod,
    cart.currency,
  );
  expect(fallback.id, "defaultShippingMethod is a delivery shippingMethod knows").toBe(
    host.shopper.defaultShippingMethod,
  );
  expect(Number.isSafeInteger(fallback.price) && fallback.price >= 0, "its price in cents").toBe(
    true,
  );
}

export async function shopperCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  expect(await host.shopper.loadCheckout(cartId), "nothing kept yet").toBeNull();
  await keep(host, cart, cartId, KNOWN_VALUATION);
  const kept = await host.servicePay.transaction((tx) => tx.loadCheckout(cartId));
  expect(kept, "the Service Pay store keeps the details").not.toBeNull();
  expect(await host.shopper.loadCheckout(cartId), "what the Service Pay store reads").toEqual(kept);
}
