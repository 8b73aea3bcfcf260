// A Service Pay purchase over HTTP only, no browser page: the shopper's steps are the shop's own
// forms, posted as a browser without JavaScript posts them (progressive enhancement), and the
// SDK's calls are the ones the SDK makes (emulator/README.md, Browser SDK). For tests of the
// protocol (amounts, webhook storms) where a page would add time and nothing to check.
import { type APIRequestContext, expect, request as playwrightRequest } from "@playwright/test";
import { TEST_ADDRESS as ADDRESS } from "../../test-support/checkout";
import { EMULATOR_URL, emulator } from "./emulator";
import { postPageForm } from "./no-js-form";
import { SESSION_COOKIE, signedInShopSession } from "./shop-session";
import { STACK } from "./stack";

export const MERCHANT = "m_demo";

export type Currency = "EUR" | "GBP";

export interface HttpCart {
  currency: Currency;
  delivery: "standard" | "express";
  lines: { slug: string; quantity: number }[];
  tradeIn: { value: number; currency: Currency };
  /** Promotion codes typed in the cart page's field, in this order (refused ones included). */
  promotionCodes?: string[];
}

/** A shopper's HTTP client, logged in (a sealed session cookie, as after the login form). */
export async function signedInShopper(email: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: STACK.shopUrl,
    storageState: {
      cookies: [
        {
          name: SESSION_COOKIE,
          value: await signedInShopSession(email),
          domain: "localhost",
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
  });
}

/** One of the page's forms, posted as without JavaScript; the shop answers a page. */
async function submitForm(
  shop: APIRequestContext,
  path: string,
  formClass: string,
  fields: Record<string, string>,
): Promise<void> {
  const answer = await postPageForm(shop, path, `class="${formClass}"`, fields);
  expect(answer.status, `${formClass} on ${path}`).toBeLessThan(400);
}

/** A call of the service's browser API, from the shop's origin, as the SDK makes it. */
export async function sdkCall(path: string, body: unknown) {
  const response = await fetch(`${EMULATOR_URL}/sdk/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STACK.shopUrl },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export interface HttpCheckout {
  hash: string;
  cartId: string;
  details: { email: string; billing: typeof ADDRESS; shipping_method: HttpCart["delivery"] };
  /** The purchase the shop's purchase_data callback gives the service. */
  purchase: {
    cart: {
      id: string;
      currency: string;
      price: number;
      tax: number;
      total: number;
      discounts?: { id: string; name: string; total: number }[];
    };
  } & Record<string, unknown>;
}

/**
 * Fills the cart through the shop's forms, has the service accept a trade-in for the session,
 * binds the session as the SDK's start-up does, and keeps the checkout details as the checkout
 * does before the service's window opens.
 */
export async function checkoutOverHttp(
  shop: APIRequestContext,
  email: string,
  cart: HttpCart,
): Promise<HttpCheckout> {
  if (cart.currency === "GBP")
    await submitForm(shop, "/", "currency-switcher", { currency: "GBP" });
  for (const line of cart.lines) {
    await submitForm(shop, `/products/${line.slug}`, "add-to-cart", {
      quantity: String(line.quantity),
    });
  }
  for (const code of cart.promotionCodes ?? []) {
    await submitForm(shop, "/cart", "promotion-code", { code });
  }
  const shopper = await (await shop.get("/api/service/shopper_data")).json();
  const hash = shopper.session_hash_token as string;
  await emulator.createTradeIn({ session_hash: hash, ...cart.tradeIn });
  const init = await sdkCall("/init", {
    merchant_id: MERCHANT,
    session_hash: hash,
    customer: shopper.customer,
  });
  expect(init.status).toBe(200);
  const details = { email, billing: ADDRESS, shipping_method: cart.delivery };
  const kept = await shop.post("/api/service/checkout", { data: details });
  expect(kept.status()).toBe(200);
  const { cart_id: cartId } = await kept.json();
  const { purchase } = await (await shop.get("/api/service/purchase_data")).json();
  return { hash, cartId, details, purchase };
}

/** The service's window starts the payment of what purchase_data said. */
export function startServicePay(checkout: HttpCheckout) {
  return sdkCall("/payments", {
    merchant_id: MERCHANT,
    session_hash: checkout.hash,
    method: "card",
    purchase: checkout.purchase,
  });
}

/** ready-to-place-order: the shop's pending order; then the shopper completes the payment. */
export async function completeServicePay(
  shop: APIRequestContext,
  checkout: HttpCheckout,
  orderId: string,
): Promise<void> {
  const pending = await shop.post("/api/service/pending-order", {
    data: { cart_id: checkout.cartId, ...checkout.details },
  });
  expect(pending.status()).toBe(200);
  const completed = await sdkCall(`/payments/${orderId}/complete`, {
    merchant_id: MERCHANT,
    session_hash: checkout.hash,
  });
  expect(completed.status).toBe(200);
}

/** A whole Service Pay purchase that the service accepts; returns the service's order id. */
export async function payWithServicePayOverHttp(
  shop: APIRequestContext,
  email: string,
  cart: HttpCart,
): Promise<HttpCheckout & { orderId: string }> {
  const checkout = await checkoutOverHttp(shop, email, cart);
  const started = await startServicePay(checkout);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const orderId = started.body.order_id as string;
  await completeServicePay(shop, checkout, orderId);
  return { ...checkout, orderId };
}
