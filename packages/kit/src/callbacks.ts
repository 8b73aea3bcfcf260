import "server-only";
import { ADDRESS_FIELDS, type Address, cartOfLines } from "./cart.js";
import { paymentOpenFor } from "./pending-order.js";
import { buildPurchaseData, type PurchaseData } from "./purchase-data.js";
import { sessionHash } from "./session-hash.js";
import type { SessionIdentity, ShopperIdentity, ShopperSource } from "./shop-ports.js";
import { buildShopperData, SHOPPER_NOT_FOUND, type ShopperData } from "./shopper-data.js";

/**
 * The two browser callbacks at `{merchant_callbacks_base}` (contract: Merchant endpoints), built
 * from the shopper's own session (Authentication 7), read through the host's SessionIdentity
 * port. Framework-free: the routes pass the request. The raw session id goes into the HMAC and
 * nowhere else.
 */

/** What the merchant endpoints read: the shop and the request's shopper. */
export interface CallbackDeps {
  /** The shop's customers, carts, delivery and kept checkouts. */
  shop: ShopperSource;
  /** The shopper of a request (their own session cookie). */
  identity: SessionIdentity;
}

/** shopper_data's answer: 200 with the customer, or 404 `not_found`. */
export type ShopperDataResult =
  | {
      /** A customer is signed in. */
      status: 200;
      /** The shopper data. */
      body: ShopperData;
    }
  | {
      /** No customer is signed in. */
      status: 404;
      /** The contract's error body. */
      body: typeof SHOPPER_NOT_FOUND;
    };

/** Shopper data: 200 for a logged-in customer, 404 `not_found` otherwise (Errors by condition):
 *  a request without a session is an anonymous shopper. */
export async function shopperDataFor(
  deps: CallbackDeps,
  request: Request,
): Promise<ShopperDataResult> {
  const session = await deps.identity.ofRequest(request);
  if (!session) return { status: 404, body: SHOPPER_NOT_FOUND };
  const shop = deps.shop;
  const customer = session.customerId ? await shop.customer(session.customerId) : null;
  if (!customer) return { status: 404, body: SHOPPER_NOT_FOUND };
  return {
    status: 200,
    body: buildShopperData({
      customer: {
        id: customer.id,
        email: customer.email,
        givenName: customer.givenName,
        familyName: customer.familyName,
      },
      // Afresh on every call from the session's current id (Resources › Session hash).
      sessionHash: sessionHash(session.sessionId, session.salt),
    }),
  };
}

/** Unknown parts of an address are empty strings: every Address field is a string. */
const EMPTY_ADDRESS: Address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, ""])) as Address;

/** Contract: purchase.customer needs an email; a guest who has not reached the checkout form yet
 *  has none. A reserved `.invalid` address says so without inventing a real one (RFC 2606). */
export const GUEST_EMAIL = "guest@example.invalid";

/**
 * Purchase data from the live cart, built fresh on every call ("called fresh each time the
 * payment modal opens"); `purchase: null` when the cart is empty. Addresses (decision in README,
 * "Service integration"): what the shopper entered at checkout for this cart when it was kept
 * (the host's ShopRoutes.checkout route), else the customer's saved address, else empty fields.
 */
export async function purchaseDataFor(
  deps: CallbackDeps,
  request: Request,
  shopBaseUrl: string,
): Promise<PurchaseData> {
  const session = await deps.identity.ofRequest(request);
  // No session: no cart (purchase null), as for an empty cart.
  if (!session) return buildPurchaseData(null);
  return purchaseDataOfSession(deps.shop, session, shopBaseUrl);
}

/** purchaseDataFor of a shopper whose identity the host has already read. */
export async function purchaseDataOfSession(
  shop: ShopperSource,
  session: ShopperIdentity,
  shopBaseUrl: string,
): Promise<PurchaseData> {
  const lines = await shop.openCart(session.sessionId, shopBaseUrl);
  if (!lines) return buildPurchaseData(null);
  const [customer, kept] = await Promise.all([
    session.customerId ? shop.customer(session.customerId) : null,
    shop.loadCheckout(lines.id),
  ]);
  const details = kept && kept.sessionId === session.sessionId ? kept.details : null;
  const saved = customer?.address ?? null;
  // The delivery the shopper chose at checkout (kept before openPayment()), else the default:
  // a line of the Cart, so the service's window and charge include it
  // (docs/decisions/delivery-in-the-cart.md).
  const delivery = await shop.shippingMethod(
    details?.shippingMethod ?? shop.defaultShippingMethod,
    lines.currency,
  );
  const cart = cartOfLines({ ...lines, delivery });
  const purchase = buildPurchaseData({
    cart,
    billing: details?.billing ?? saved ?? EMPTY_ADDRESS,
    shipping: {
      address: details?.shipping ?? saved ?? EMPTY_ADDRESS,
      method: { id: delivery.id, name: delivery.name, price: delivery.price },
    },
    customer: customer
      ? { id: customer.id, email: customer.email }
      : { id: `guest-${cart.id}`, email: details?.email ?? GUEST_EMAIL },
  });
  // Contract, Merchant endpoints: purchase_data is what the SDK reads to collect, "called fresh
  // each time the payment modal opens", so the amount is fixed here, not at payment start (a
  // price may change in between). While the payment is open, the Cart's total and currency are
  // kept with the checkout: the pending order is made only when it owes exactly that.
  if (kept && details && paymentOpenFor(kept, session.sessionId)) {
    await shop.noteAskedToCollect(kept, {
      amount: cart.total,
      currency: cart.currency,
    });
  }
  return purchase;
}
