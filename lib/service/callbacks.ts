import type { Db } from "@/lib/db/client";
import { ADDRESS_FIELDS, type Address } from "@/lib/shop/address";
import { loadCartWith } from "@/lib/shop/cart";
import { toContractCart } from "@/lib/shop/contract-cart";
import { loadServiceCheckout } from "@/lib/shop/service-orders";
import { shippingMethod } from "@/lib/shop/shipping";
import { buildPurchaseData, type PurchaseData } from "./purchase-data";
import { sessionHash } from "./session-hash";
import { buildShopperData, SHOPPER_NOT_FOUND, type ShopperData } from "./shopper-data";

/**
 * The two browser callbacks at `{merchant_callbacks_base}` (contract: Merchant endpoints), built
 * from the shopper's own session (Authentication 7). Framework-free; the routes read the sealed
 * session cookie and pass its values. The raw session id goes into the HMAC and nowhere else.
 */

export interface CallbackSession {
  sessionId: string;
  salt: string;
  customerId?: string | undefined;
}

export type ShopperDataResult =
  | { status: 200; body: ShopperData }
  | { status: 404; body: typeof SHOPPER_NOT_FOUND };

/** Shopper data: 200 for a logged-in customer, 404 `not_found` otherwise (Errors by condition). */
export async function shopperDataFor(db: Db, session: CallbackSession): Promise<ShopperDataResult> {
  const customer = session.customerId
    ? await db.customer.findUnique({ where: { id: session.customerId } })
    : null;
  if (!customer) return { status: 404, body: SHOPPER_NOT_FOUND };
  return {
    status: 200,
    body: buildShopperData({
      customer: {
        id: customer.id,
        email: customer.email,
        givenName: customer.given_name,
        familyName: customer.family_name,
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

function pickAddress(row: Record<(typeof ADDRESS_FIELDS)[number], string>): Address {
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, row[f]])) as Address;
}

/**
 * Purchase data from the live cart, built fresh on every call ("called fresh each time the
 * payment modal opens"); `purchase: null` when the cart is empty. Addresses (decision in README,
 * "Service integration"): what the shopper entered at checkout for this cart when it was kept
 * (POST /api/service/checkout), else the customer's saved address, else empty fields.
 */
export async function purchaseDataFor(
  db: Db,
  session: CallbackSession,
  shopBaseUrl: string,
): Promise<PurchaseData> {
  const cart = await loadCartWith(db, session.sessionId);
  if (!cart || cart.lines.length === 0) return buildPurchaseData(null);
  const [customer, kept] = await Promise.all([
    session.customerId
      ? db.customer.findUnique({ where: { id: session.customerId }, include: { address: true } })
      : null,
    loadServiceCheckout(db, cart.id),
  ]);
  const details = kept && kept.sessionId === session.sessionId ? kept.details : null;
  const saved = customer?.address ? pickAddress(customer.address) : null;
  const method = shippingMethod(details?.shippingMethod ?? "standard");
  return buildPurchaseData({
    cart: toContractCart(cart, shopBaseUrl),
    billing: details?.billing ?? saved ?? EMPTY_ADDRESS,
    shipping: {
      address: details?.shipping ?? saved ?? EMPTY_ADDRESS,
      method: { id: method.id, name: method.name, price: method.price[cart.currency] },
    },
    customer: customer
      ? { id: customer.id, email: customer.email }
      : { id: `guest-${cart.id}`, email: details?.email ?? GUEST_EMAIL },
  });
}
