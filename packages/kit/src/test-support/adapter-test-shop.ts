// The test shop an adapter package runs the conformance suite on: one product, one delivery
// method, its own status names, a guest session identity, and the ConformanceHost made of an
// adapter (ServiceAdapter) and the few writes to the shop's own tables each ORM spells its way.
// Every adapter's tests use it, so the shop is defined once.
import { randomUUID } from "node:crypto";
import type { Address, DeliveryCharge, ShopOrderItem } from "../cart.js";
import { createGuestIdentity } from "../guest-identity.js";
import { DEFAULT_ORDER_STATUSES, orderStatusRules } from "../host-defaults.js";
import type { ServiceAdapter } from "../service-adapter.js";
import type { CreateOrderParams } from "../shop-callbacks.js";
import type { OrderStatusRules, ShopCustomer } from "../shop-ports.js";
import type { ConformanceHost, SeededCart } from "./shop-ports-conformance.js";

/** The shop's one product, EUR, cents before tax and tax. */
export const TEST_PHONE = {
  /** The product's id (its page: /products/phone). */
  id: "phone",
  /** Its name on a cart line. */
  name: "Phone",
  /** Its description on a cart line. */
  description: "A phone",
  /** Unit price before tax, integer cents (100.00). */
  price: 10_000,
  /** Unit tax, integer cents (23.00). */
  tax: 2_300,
};

/** The shop's delivery methods by id (`url` added by testDelivery). */
export const TEST_SHIPPING: Record<string, Omit<DeliveryCharge, "url">> = {
  standard: { id: "standard", name: "Standard delivery", price: 490, tax: 0 },
};

/** A delivery method (an unknown id: free), charged at `price` when given. */
export function testDelivery(id: string, price?: number): DeliveryCharge {
  const method = TEST_SHIPPING[id] ?? { id, name: id, price: 0 };
  return { ...method, price: price ?? method.price, url: `http://shop.test/delivery/${id}` };
}

/** A line of `quantity` phones, as the cart and the order show it. */
export function testPhoneLine(quantity: number, shopBaseUrl: string): ShopOrderItem {
  const { id: productId, name, description, price, tax } = TEST_PHONE;
  const url = `${shopBaseUrl}/products/${productId}`;
  return { productId, name, description, url, quantity, price, tax };
}

/**
 * The order row's columns of a cart's lines (createOrder): the integration's `columns` spread
 * in, its amounts summed from the lines in integer cents. Null when the delivery method is not
 * the shop's.
 */
export function testOrderValues(
  params: Pick<CreateOrderParams, "details" | "columns">,
  cartId: string,
  lines: { quantity: number }[],
) {
  const method = TEST_SHIPPING[params.details.shippingMethod];
  if (!method) return null;
  const price = lines.reduce((sum, l) => sum + TEST_PHONE.price * l.quantity, 0);
  const tax = lines.reduce((sum, l) => sum + TEST_PHONE.tax * l.quantity, 0);
  return {
    /** The checkout's e-mail. */
    email: params.details.email,
    /** The delivery method's id. */
    shippingMethod: method.id,
    ...params.columns,
    /** The cart the order is made of. */
    cartId,
    /** The order's currency (the test shop's: EUR). */
    currency: "EUR",
    /** The lines' price before tax, integer cents. */
    price,
    /** The lines' tax, integer cents. */
    tax,
    /** The delivery's price, integer cents. */
    shippingPrice: method.price,
    /** price + tax + delivery, integer cents (before any trade-in). */
    total: price + tax + method.price,
  };
}

/** The test shop's billing and shipping address (a customer's too). */
export const TEST_CHECKOUT_ADDRESS: Address = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "+49301234567",
  address: "1 Main Street",
  city: "Berlin",
  state: "",
  country_code: "DE",
  postal_code: "10115",
};

// The shop's own status names: paid is not the contract's word here.
const TRANSITIONS: Record<string, string[]> = {
  awaiting_payment: ["paid", "complete", "on_hold", "cancelled"],
  paid: ["partially_shipped", "shipped", "complete", "on_hold", "cancelled"],
  partially_shipped: ["shipped", "complete"],
  shipped: ["complete", "returned"],
  complete: ["returned"],
  on_hold: ["paid", "cancelled"],
  returned: [],
  cancelled: [],
};
/** Its rules: the kit's orderStatusRules over its own table (the defaults' names and held). */
export const testShopStatuses: OrderStatusRules = orderStatusRules({
  transitions: TRANSITIONS,
  afterUpdate: { ...DEFAULT_ORDER_STATUSES.afterUpdate, partial_shipment: "partially_shipped" },
  paidOrLater: ["paid", "partially_shipped", "shipped", "complete", "returned"],
});

/** The checkout of a session's open cart of one phone: its details, what it owes. */
export function testCheckout(sessionId: string): SeededCart {
  const details = {
    email: "ada@example.com",
    billing: TEST_CHECKOUT_ADDRESS,
    shipping: TEST_CHECKOUT_ADDRESS,
    shippingMethod: "standard",
  };
  const owes = TEST_PHONE.price + TEST_PHONE.tax + testDelivery("standard").price;
  return { sessionId, details, owes, currency: "EUR" };
}

/** The test shop's session identity (SessionIdentity stays the shop's): the kit's guest cookie,
 *  and a `test_customer` cookie standing in for the shop's auth library. */
const guests = createGuestIdentity({
  secret: "s".repeat(32),
  secure: false,
  customerOf: async (request) =>
    /(?:^|;\s*)test_customer=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? null,
});

/** What the host needs written in the shop's own tables, in the adapter's ORM. */
export interface TestShopWrites {
  /** A new open cart of session `sessionId` with one phone. */
  insertOpenCart(sessionId: string): Promise<void>;
  /** The customer, its address as JSON text. */
  insertCustomer(customer: ShopCustomer): Promise<void>;
  /** The token row as stored (the checks see that it is sealed, never plain text). */
  persistedTokenText(): Promise<string>;
  /** Closes the database connection(s). */
  close(): Promise<void>;
}

/** The conformance host of the test shop over `adapter`. */
export function testShopHost(
  adapter: Omit<ServiceAdapter, "writeOrderChange" | "recordNewOrder" | "lockOrders">,
  shop: TestShopWrites,
): ConformanceHost {
  return {
    servicePay: adapter.servicePay,
    statuses: testShopStatuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity: guests.sessionIdentity,
    shopper: adapter.shopper,
    async seedOpenCart() {
      const sessionId = randomUUID();
      await shop.insertOpenCart(sessionId);
      return testCheckout(sessionId);
    },
    async issueSession(customerId) {
      const { session, cookie } = guests.replace();
      const signedIn = customerId ? `; test_customer=${customerId}` : "";
      return {
        cookie: `${cookie.name}=${cookie.value}${signedIn}`,
        identity: { ...session, ...(customerId ? { customerId } : {}) },
      };
    },
    async seedCustomer() {
      const customer: ShopCustomer = {
        id: randomUUID(),
        email: `ada-${randomUUID()}@example.com`,
        givenName: "Ada",
        familyName: "Lovelace",
        address: TEST_CHECKOUT_ADDRESS,
      };
      await shop.insertCustomer(customer);
      return customer;
    },
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    persistedTokenText: () => shop.persistedTokenText(),
    close: () => shop.close(),
  };
}
