import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { NOT_LOOKED_UP } from "../accepted-valuation.js";
import {
  applyTradeInAfterCardPayment,
  type RetryRunSummary,
  retryDueRegistrations,
  type TradeInClient,
  type TradeInDeps,
} from "../card-trade-in.js";
import { cartOfLines, totalBeforeTradeIn } from "../cart.js";
import { ServiceApiError, ServiceNetworkError } from "../errors.js";
import { HttpTransport } from "../http.js";
import { sendOrderUpdate } from "../order-updates.js";
import {
  createServicePayOrder,
  type NotificationDeps,
  receiveNotification,
} from "../order-webhook.js";
import { createServicePendingOrder, servicePaymentOpen } from "../pending-order.js";
import { sessionSchema } from "../resources.js";
import {
  type AcceptedValuation,
  type CheckoutDetails,
  isConcurrentWrite,
  type OrderStatusRules,
  type ServiceOrderStore,
  type ServicePayStore,
  type ServicePayTx,
  type SessionIdentity,
  type ShopCustomer,
  type ShopOrder,
  type ShopperIdentity,
  type ShopperSource,
  type StoredTokens,
  type TokenStore,
  type TradeInRegistrationStore,
} from "../shop-ports.js";
import { TokenManager } from "../tokens.js";
import { type OrderNotification, parseOrderNotification } from "../webhook-payload.js";
import { CHECK_PORTS, type PortName } from "./conformance-ports.js";
import { createFakeDeps, reply } from "./fake-transport.js";

/**
 * The shop-ports conformance suite: what a host's implementation of packages/kit/src/shop-ports.ts
 * must guarantee beyond its types (the unique keys, the one transaction, the locks and leases
 * its comments name), checked through the kit's own functions over the host's ports, so it
 * tests the host and not a copy of the logic. Run it with Vitest from the host's test file:
 *
 *   runShopPortsConformance(makeHost);
 *
 * or take the plain checks (shopPortsConformanceChecks) and run them however you like: each
 * throws on failure. Every check makes its own host with `makeHost` and closes it afterwards.
 * docs/integrating.md, "Prove your adapter: the conformance suite".
 */

/** An open cart the host seeded for the checks (ConformanceHost.seedOpenCart). */
export interface SeededCart {
  /** A new session id whose open cart (ServicePayTx.openCartId) holds at least one line. */
  sessionId: string;
  /** Checkout details the host accepts for that cart (its own delivery method id). */
  details: CheckoutDetails;
  /** What the order made of this cart owes before the trade-in, in cents: items, tax and the
   *  delivery of `details.shippingMethod` (order-webhook.ts, totalBeforeTradeIn). The checks'
   *  payment notifications carry it as `amount`, so they match the order. */
  owes: number;
  /** The cart's currency. */
  currency: string;
}

/** A shopper session the host issued (ConformanceHost.issueSession). */
export interface IssuedSession {
  /** The Cookie request header the shopper's browser sends with it (`name=value`, as the host's
   *  own session code sets it). */
  cookie: string;
  /** The identity the host put in that session: SessionIdentity.ofRequest must give exactly it. */
  identity: ShopperIdentity;
}

/**
 * A fresh, empty host: the ports under test, and the seeding hooks the ports cannot do for
 * themselves. Everything else the checks need they make through the kit.
 */
export interface ConformanceHost {
  /** The Service Pay store (kept checkouts, pending orders, notifications) under test. */
  servicePay: ServicePayStore;
  /** The host's order statuses, as its webhook uses them. */
  statuses: OrderStatusRules;
  /** The back office's order store (order updates, reconciliation). A host that sends no order
   *  updates (no back office) leaves it out and runs the suite with
   *  `{ skip: ["order-update-against-current"] }`: that check is then reported as skipped. */
  orders?: ServiceOrderStore;
  /** The register-purchase store; its rows belong to orders the checks create from seeded carts. */
  tradeIns: TradeInRegistrationStore;
  /** The token store, empty. */
  tokens: TokenStore;
  /** The host's session identity (what the merchant callbacks and the card step read). */
  identity: SessionIdentity;
  /** The merchant endpoints' view of the shop (customers, open carts, delivery, kept details). */
  shopper: ShopperSource;
  /** Seeds a new session with an open cart of at least one line (once per call, never shared). */
  seedOpenCart(): Promise<SeededCart>;
  /** Issues a new shopper session as the host's own code does (first visit; with `customerId`,
   *  signed in as that customer), never shared. */
  issueSession(customerId?: string): Promise<IssuedSession>;
  /** Seeds a new customer (never shared) and gives it as ShopperSource.customer must. */
  seedCustomer(): Promise<ShopCustomer>;
  /** Records that this session's browser saw `tradeInId` accepted, the way the host does it
   *  (this shop: POST /api/service/trade-in-seen). A host that keeps none (tradeInSeen always
   *  null) leaves it out and runs the suite with `{ skip: ["trade-in-seen"] }`. */
  recordTradeInSeen?(sessionId: string, tradeInId: string): Promise<void>;
  /** Everything the token store has persisted, as text (rows, documents, files): the sealing
   *  check looks for the raw tokens in it. */
  persistedTokenText(): Promise<string>;
  /** Frees what the host holds (its database); called once when a check ends. */
  close?(): Promise<void>;
}

export type MakeConformanceHost = () => Promise<ConformanceHost>;

export interface ConformanceCheck {
  /** A short stable id (e.g. to skip or pick a check). */
  key: string;
  /** The guarantee, in words. */
  name: string;
  /** The ports whose guarantee it proves (conformance-ports.ts). */
  ports: readonly PortName[];
  run: () => Promise<void>;
}

/** How many copies of one call the duplicate checks send at once. */
export const CONCURRENT_COPIES = 50;

const SHOP_BASE_URL = "http://shop.test";
/** The checks' clock for the trade-in steps (never the wall clock: no waiting on real time). */
const NOW = new Date("2030-01-01T12:00:00.000Z");
const LATER = new Date(NOW.getTime() + 60 * 60 * 1000);

/** The suite's checks, each with its own host from `makeHost`. */
export function shopPortsConformanceChecks(makeHost: MakeConformanceHost): ConformanceCheck[] {
  const check = (key: string, name: string, body: (host: ConformanceHost) => Promise<void>) => ({
    key,
    name,
    ports: portsOf(key),
    run: async () => {
      const host = await makeHost();
      try {
        await body(host);
      } finally {
        await host.close?.();
      }
    },
  });
  return [
    check(
      "rollback",
      "a Service Pay transaction that throws midway rolls back whole: nothing of it is visible afterwards",
      rollsBackWhole,
    ),
    check(
      "open-cart-checkout",
      "the details kept for a session's open cart are read in one call by loadCheckout's rules: none before they are kept, none for another session's cart, none once the cart is an order",
      openCartCheckoutRead,
    ),
    check(
      "duplicate-notification",
      `the same notification delivered ${CONCURRENT_COPIES} times at once is stored and applied once (unique dedupe key)`,
      duplicateNotifications,
    ),
    check(
      "duplicate-early-notification",
      `the same early notification delivered ${CONCURRENT_COPIES} times at once waits once and is applied once when its order is created`,
      duplicateEarlyNotifications,
    ),
    check(
      "one-order-per-cart",
      `${CONCURRENT_COPIES} ready-to-place-order calls at once for one cart make one order (unique Order.cartId and kept checkout's cart id)`,
      onePendingOrderPerCart,
    ),
    check(
      "webhook-mode-one-order",
      `webhook mode: the paid notification delivered ${CONCURRENT_COPIES} times at once makes one order, paid once`,
      webhookModeMakesOneOrder,
    ),
    check(
      "unique-service-order",
      "tying a second order to a service order another order holds throws ConcurrentWriteError and writes nothing (unique Order.serviceOrderId)",
      uniqueServiceOrderId,
    ),
    check(
      "early-notification",
      "a notification that arrives before its order is kept and applied when the order is created",
      earlyNotificationApplied,
    ),
    check(
      "out-of-order",
      "out-of-order notifications (completed before payment_completed), one after the other or at once, end on completed",
      outOfOrderNotifications,
    ),
    check(
      "order-update-against-current",
      "an order update written after a notification moved the order is written against the order as it is now: a status it can no longer take is dropped",
      orderUpdateAgainstCurrent,
    ),
    check(
      "one-registration-per-order",
      `the card order's trade-in step run ${CONCURRENT_COPIES} times at once writes one registration and registers once (unique TradeInRegistration.orderId)`,
      oneRegistrationPerOrder,
    ),
    check(
      "one-claim-per-attempt",
      `a registration attempt is claimed by exactly one of ${CONCURRENT_COPIES} claimers (compare-and-set)`,
      oneClaimPerAttempt,
    ),
    check(
      "lease-before-claim",
      "a row the retry job leased between its insert and its creator's claim is not attempted again while the creator's attempt runs (the lease's attempts)",
      leaseBeforeClaim,
    ),
    check(
      "retry-job-claims",
      "the retry job's runners at once claim each due registration once, and none that is not due",
      retryRunnersClaimOnce,
    ),
    check(
      "session-identity",
      "SessionIdentity.ofRequest gives null without the shopper's cookie, and with it the identity the host issued (the customer too), the same on every read",
      sessionIdentityRead,
    ),
    check(
      "shopper-customer",
      "ShopperSource.customer gives a known customer's fields and null for an unknown one",
      shopperCustomer,
    ),
    check(
      "shopper-open-cart",
      "ShopperSource.openCart gives the session's open cart (its id, currency and lines in integer cents, owing what its order owes) and null for an unknown session or a cart that became an order",
      shopperOpenCart,
    ),
    check(
      "shopper-delivery",
      "ShopperSource.shippingMethod gives the delivery the order charges, in the cart's currency, and knows the defaultShippingMethod",
      shopperDelivery,
    ),
    check(
      "shopper-checkout",
      "ShopperSource.loadCheckout agrees with the Service Pay store's loadCheckout",
      shopperCheckout,
    ),
    check(
      "drop-checkout",
      "dropCheckout forgets the kept details (no payment open any more), and dropping what is not kept is harmless",
      dropCheckout,
    ),
    check(
      "resave-checkout",
      "a re-save of the kept checkout refreshes its keptAt, keeps the valuation when the re-save omits it and replaces it when given",
      resaveCheckout,
    ),
    check(
      "trade-in-seen",
      "tradeInSeen gives the trade-in recorded for the session, only for that session, and null for an unknown one",
      tradeInSeen,
    ),
    check(
      "typed-unreachable",
      "unreachableSince counts a registration finished unreachable since then, by its own field: a lastError that reads like a network failure does not count",
      typedUnreachable,
    ),
    check(
      "tokens-sealed",
      "the token store persists the tokens sealed: no raw access token, refresh token or user id in what it stores",
      tokensSealed,
    ),
    check(
      "renewal-lease",
      `the renewal lease goes to exactly one of ${CONCURRENT_COPIES} holders; its holder may retake it, others only once released or expired`,
      renewalLease,
    ),
    check(
      "one-grant",
      "an expired token noticed by 20 token managers at once costs one grant; all share its token",
      oneGrantForManyRenewers,
    ),
  ];
}

function portsOf(key: string): readonly PortName[] {
  const ports = CHECK_PORTS[key];
  // A check must say which port it proves: docs/integrating.md's table of the ports is made of it.
  if (!ports) throw new Error(`conformance check "${key}" names no port (conformance-ports.ts)`);
  return ports;
}

/** Registers each check as a Vitest test, in one `describe`. */
export function runShopPortsConformance(
  makeHost: MakeConformanceHost,
  label = "host",
  options: { skip?: string[] } = {},
): void {
  describe(`shop-ports conformance (${label})`, () => {
    for (const { key, name, run } of shopPortsConformanceChecks(makeHost)) {
      if (options.skip?.includes(key)) it.skip(name, run);
      else it(name, run);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function deps(host: ConformanceHost, mode: NotificationDeps["mode"] = "ready_to_place_order") {
  return { store: host.servicePay, statuses: host.statuses, mode, shopBaseUrl: SHOP_BASE_URL };
}

/** Runs `n` calls at once; every one must resolve (an unhandled error fails the check). */
async function atOnce<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => call(i)));
  const failed = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
  if (failed.length > 0) {
    const first = failed[0] instanceof Error ? failed[0].message : String(failed[0]);
    throw new Error(`${failed.length} of ${n} concurrent calls threw; the first: ${first}`);
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

const count = <T>(values: readonly T[], value: T) => values.filter((v) => v === value).length;

/** The cart id of a seeded cart, read through the store. */
async function cartIdOf(host: ConformanceHost, cart: SeededCart): Promise<string> {
  const cartId = await host.servicePay.transaction((tx) => tx.openCartId(cart.sessionId));
  if (!cartId) throw new Error("seedOpenCart: the seeded session has no open cart (openCartId)");
  return cartId;
}

/** A seeded cart and its pending order, made by the kit's ready-to-place-order step. */
async function pendingOrder(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const result = await createServicePendingOrder(deps(host), {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  if (!result.ok || !result.orderId) {
    throw new Error(`the pending order was not created: ${JSON.stringify(result)}`);
  }
  const order = await orderOf(host, cartId);
  expect(totalBeforeTradeIn(order), "seedOpenCart's `owes`").toBe(cart.owes);
  return { cart, cartId, order };
}

async function orderOf(host: ConformanceHost, cartId: string): Promise<ShopOrder> {
  const order = await host.servicePay.transaction((tx) => tx.findOrderFor(null, cartId));
  if (!order) throw new Error(`no order for cart ${cartId}`);
  return order;
}

/** A notification as the webhook parses it from the service's bytes. */
function notification(
  cart: SeededCart,
  cartId: string,
  status: "pending" | "payment_completed" | "completed",
  id = `wh_${randomUUID()}`,
): OrderNotification {
  const body = {
    id,
    event: `order.${status}`,
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status,
    amount: cart.owes,
    currency: cart.currency,
    trade_in_discount: tradeInDiscountFor(cart),
  };
  return parseOrderNotification(new TextEncoder().encode(JSON.stringify(body)));
}

/** A discount the payment check allows on an order with no looked-up valuation (range only). */
const tradeInDiscountFor = (cart: SeededCart) => Math.floor(cart.owes / 10);

function historyCount(history: string[], status: string): number {
  return count(history, status);
}

/** Creates the seeded cart's pending order through the kit (as the checkout route does). */
async function createPendingOrderOf(host: ConformanceHost, cart: SeededCart, cartId: string) {
  const result = await createServicePendingOrder(deps(host), {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  expect(result).toMatchObject({ ok: true, created: true });
  return orderOf(host, cartId);
}

/** The order reached `status` once, and the notification is recorded as applied to it. */
async function expectAppliedOnce(
  tx: ServicePayTx,
  orderId: string,
  dedupeKey: string,
  status: string,
): Promise<void> {
  const history = await tx.statusHistory(orderId);
  expect(historyCount(history, status), `history: ${history.join(" ← ")}`).toBe(1);
  expect(await tx.notificationOutcome(dedupeKey)).toEqual({ outcome: "applied", orderId });
}

// ---------------------------------------------------------------------------------------------
// The Service Pay store

async function openCartCheckoutRead(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const other = await host.seedOpenCart();
  expect(await host.servicePay.openCartCheckout(cart.sessionId), "nothing kept yet").toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no payment open yet").toBe(false);
  const before = Date.now();
  await host.servicePay.transaction((tx) =>
    tx.saveCheckout({
      cartId,
      sessionId: cart.sessionId,
      customerId: null,
      details: cart.details,
      valuation: NOT_LOOKED_UP,
    }),
  );
  const kept = await host.servicePay.openCartCheckout(cart.sessionId);
  expect(kept?.cartId, "the open cart's details").toBe(cartId);
  expect(kept?.sessionId).toBe(cart.sessionId);
  expect(kept?.details, "the details as kept").toEqual(
    await host.servicePay.transaction((tx) => tx.loadCheckout(cartId)).then((k) => k?.details),
  );
  expect(kept?.keptAt, "keptAt is a Date").toBeInstanceOf(Date);
  expect(kept?.keptAt.getTime(), "kept now").toBeGreaterThan(before - 60_000);
  expect(kept?.keptAt.getTime(), "kept now").toBeLessThan(Date.now() + 60_000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "open while kept").toBe(true);
  const later = new Date(Date.now() + 31 * 60 * 1000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId, later), "past the modal").toBe(false);
  expect(await host.servicePay.openCartCheckout(other.sessionId), "another session").toBeNull();
  await createPendingOrderOf(host, cart, cartId);
  expect(await host.servicePay.openCartCheckout(cart.sessionId), "the cart is an order").toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no cart open").toBe(false);
}

async function rollsBackWhole(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  const boom = new Error("conformance: thrown midway");
  const thrown = await host.servicePay
    .transaction(async (tx) => {
      await tx.saveCheckout({
        cartId,
        sessionId: cart.sessionId,
        customerId: null,
        details: cart.details,
        valuation: NOT_LOOKED_UP,
      });
      const order = await createServicePayOrder(tx, {
        status: host.statuses.forServiceStatus.pending,
        sessionId: cart.sessionId,
        customerId: null,
        details: cart.details,
        valuation: NOT_LOOKED_UP,
        shopBaseUrl: SHOP_BASE_URL,
        note: "conformance: rolled back",
      });
      if (!order) throw new Error("createPendingOrder gave no order for the seeded cart");
      const id = await tx.claimNotification(n);
      if (!id) throw new Error("claimNotification refused a new notification");
      await tx.changeOrder(order, {
        to: host.statuses.forServiceStatus.payment_completed,
        source: "service",
        note: "conformance: rolled back",
      });
      await tx.settleNotification(id, order.id, "applied");
      throw boom;
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(thrown, "the error thrown inside the transaction comes out as it is").toBe(boom);
  await host.servicePay.transaction(async (tx) => {
    expect(await tx.openCartId(cart.sessionId), "the cart is still open").toBe(cartId);
    expect(await tx.findOrderFor(null, cartId), "no order of the cart").toBeNull();
    expect(await tx.findSessionOrder(cart.sessionId, { cartId }), "no session order").toBeNull();
    expect(await tx.loadCheckout(cartId), "no kept checkout").toBeNull();
    expect(await tx.notificationOutcome(n.dedupeKey), "no stored notification").toBeNull();
    expect(await tx.hasWaitingNotification(cartId), "no waiting notification").toBe(false);
  });
  // And the rolled-back delivery, when it comes again, is applied as new.
  const receipt = await receiveNotification(deps(host), n);
  expect(receipt.outcome, "the repeated delivery is not taken for a duplicate").toBe("early");
}

async function duplicateNotifications(host: ConformanceHost) {
  const { cart, cartId, order } = await pendingOrder(host);
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(deps(host), n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(count(outcomes, "applied"), `outcomes: ${outcomes.join(", ")}`).toBe(1);
  expect(count(outcomes, "duplicate")).toBe(CONCURRENT_COPIES - 1);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect((await orderOf(host, cartId)).status).toBe(paid);
  await host.servicePay.transaction(async (tx) => {
    await expectAppliedOnce(tx, order.id, n.dedupeKey, paid);
  });
}

async function duplicateEarlyNotifications(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(deps(host), n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(count(outcomes, "early"), `outcomes: ${outcomes.join(", ")}`).toBe(1);
  expect(count(outcomes, "duplicate")).toBe(CONCURRENT_COPIES - 1);
  const waiting = await host.servicePay.transaction((tx) => tx.waitingNotifications(cartId, null));
  expect(
    waiting.map((w) => w.dedupeKey),
    "stored once, waiting",
  ).toEqual([n.dedupeKey]);

  const order = await createPendingOrderOf(host, cart, cartId);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect(order.status).toBe(paid);
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
  expect(historyCount(history, paid), `history: ${history.join(" ← ")}`).toBe(1);
}

async function onePendingOrderPerCart(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const results = await atOnce(CONCURRENT_COPIES, () =>
    createServicePendingOrder(deps(host), {
      sessionId: cart.sessionId,
      customerId: null,
      cartId,
      details: cart.details,
    }),
  );
  const failed = results.filter((r) => !r.ok);
  expect(failed, "every call gives the cart's order").toEqual([]);
  const ok = results.flatMap((r) => (r.ok ? [r] : []));
  expect(ok.filter((r) => r.created).length, "created once").toBe(1);
  const ids = new Set(ok.map((r) => r.orderId));
  expect([...ids], "one order id for every call").toHaveLength(1);
  expect((await orderOf(host, cartId)).id).toBe([...ids][0]);
}

async function webhookModeMakesOneOrder(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const webhookDeps = deps(host, "webhook");
  // Payment start: the details are kept (webhook mode makes no order yet).
  const kept = await createServicePendingOrder(webhookDeps, {
    sessionId: cart.sessionId,
    customerId: null,
    cartId,
    details: cart.details,
  });
  expect(kept).toMatchObject({ ok: true, orderId: null });
  const n = notification(cart, cartId, "payment_completed");
  const receipts = await atOnce(CONCURRENT_COPIES, () => receiveNotification(webhookDeps, n));
  const outcomes = receipts.map((r) => r.outcome);
  expect(
    outcomes.filter((o) => o !== "duplicate"),
    `one delivery is not a duplicate: ${outcomes.join(", ")}`,
  ).toHaveLength(1);
  const numbers = new Set(receipts.flatMap((r) => (r.orderNumber ? [r.orderNumber] : [])));
  expect([...numbers], "every receipt names the one order").toHaveLength(1);
  const order = await orderOf(host, cartId);
  expect(order.number).toBe([...numbers][0]);
  const paid = host.statuses.forServiceStatus.payment_completed;
  expect(order.status).toBe(paid);
  await host.servicePay.transaction(async (tx) => {
    const latest = await tx.findSessionOrder(cart.sessionId, { since: new Date(0) });
    expect(latest?.id, "the session's latest order is the cart's one order").toBe(order.id);
    await expectAppliedOnce(tx, order.id, n.dedupeKey, paid);
  });
}

async function uniqueServiceOrderId(host: ConformanceHost) {
  const first = await pendingOrder(host);
  const second = await pendingOrder(host);
  // The first order is tied to its service order by its notification.
  const n = notification(first.cart, first.cartId, "payment_completed");
  expect((await receiveNotification(deps(host), n)).outcome).toBe("applied");
  const serviceOrderId = n.serviceOrderId ?? "";
  expect((await orderOf(host, first.cartId)).serviceOrderId).toBe(serviceOrderId);
  const thrown = await host.servicePay
    .transaction(async (tx) => {
      const order = await tx.findOrderFor(null, second.cartId);
      if (!order) throw new Error("findOrderFor gives no order for the second cart");
      await tx.changeOrder(order, {
        to: host.statuses.forServiceStatus.completed,
        source: "service",
        note: "conformance: must not be written",
      });
      await tx.changeOrder(
        { ...order, status: host.statuses.forServiceStatus.completed },
        {
          serviceOrderId,
          source: "service",
          note: "conformance: a service order another order holds",
        },
      );
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(isConcurrentWrite(thrown), `thrown: ${String(thrown)}`).toBe(true);
  const after = await orderOf(host, second.cartId);
  expect(after, "nothing of the transaction was written").toMatchObject({
    status: second.order.status,
    serviceOrderId: null,
  });
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(after.id));
  expect(historyCount(history, host.statuses.forServiceStatus.completed)).toBe(0);
}

async function earlyNotificationApplied(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  const n = notification(cart, cartId, "payment_completed");
  expect((await receiveNotification(deps(host), n)).outcome).toBe("early");
  expect(await host.servicePay.transaction((tx) => tx.hasWaitingNotification(cartId))).toBe(true);
  const order = await createPendingOrderOf(host, cart, cartId);
  expect(order).toMatchObject({
    status: host.statuses.forServiceStatus.payment_completed,
    serviceOrderId: `ord_${cartId}`,
    tradeInDiscount: tradeInDiscountFor(cart),
  });
  await host.servicePay.transaction(async (tx) => {
    expect(await tx.notificationOutcome(n.dedupeKey)).toEqual({
      outcome: "applied",
      orderId: order.id,
    });
    expect(await tx.hasWaitingNotification(cartId)).toBe(false);
  });
  // A repeat after the order exists changes nothing.
  expect((await receiveNotification(deps(host), n)).outcome).toBe("duplicate");
}

async function outOfOrderNotifications(host: ConformanceHost) {
  const { completed, payment_completed: paid } = host.statuses.forServiceStatus;
  // One after the other: the later status first, the earlier one late.
  {
    const { cart, cartId } = await pendingOrder(host);
    const done = await receiveNotification(deps(host), notification(cart, cartId, "completed"));
    const late = await receiveNotification(
      deps(host),
      notification(cart, cartId, "payment_completed"),
    );
    expect([done.outcome, late.outcome]).toEqual(["applied", "recorded"]);
    expect((await orderOf(host, cartId)).status).toBe(completed);
  }
  // At the same moment, each order of start (findOrderFor locks the order).
  for (let round = 0; round < 4; round++) {
    const { cart, cartId, order } = await pendingOrder(host);
    const sends = [
      () => receiveNotification(deps(host), notification(cart, cartId, "payment_completed")),
      () => receiveNotification(deps(host), notification(cart, cartId, "completed")),
    ];
    if (round % 2 === 1) sends.reverse();
    await atOnce(2, (i) => (sends[i] as () => Promise<unknown>)());
    expect((await orderOf(host, cartId)).status, `round ${round}`).toBe(completed);
    const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
    // Newest first: completed last, payment_completed (if at all) only before it.
    expect(history[0], `round ${round}: ${history.join(" ← ")}`).toBe(completed);
    expect(historyCount(history, completed)).toBe(1);
    expect(historyCount(history, paid)).toBeLessThanOrEqual(1);
  }
}

// ---------------------------------------------------------------------------------------------
// The session identity and the merchant endpoints' view of the shop

const requestWith = (cookie?: string) =>
  new Request(`${SHOP_BASE_URL}/callbacks/shopper_data`, cookie ? { headers: { cookie } } : {});

/** The identity as a plain object: an absent customer and `customerId: undefined` alike. */
const identityOf = (who: ShopperIdentity | null) =>
  who && { sessionId: who.sessionId, salt: who.salt, customerId: who.customerId ?? null };

async function sessionIdentityRead(host: ConformanceHost) {
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

async function shopperCustomer(host: ConformanceHost) {
  const customer = await host.seedCustomer();
  expect(await host.shopper.customer(customer.id), "a known customer's fields").toEqual(customer);
  expect(await host.shopper.customer(`unknown-${randomUUID()}`), "an unknown customer").toBeNull();
}

async function shopperOpenCart(host: ConformanceHost) {
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

async function shopperDelivery(host: ConformanceHost) {
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

async function shopperCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  expect(await host.shopper.loadCheckout(cartId), "nothing kept yet").toBeNull();
  await keep(host, cart, cartId, KNOWN_VALUATION);
  const kept = await host.servicePay.transaction((tx) => tx.loadCheckout(cartId));
  expect(kept, "the Service Pay store keeps the details").not.toBeNull();
  expect(await host.shopper.loadCheckout(cartId), "what the Service Pay store reads").toEqual(kept);
}

// ---------------------------------------------------------------------------------------------
// Kept checkout details: dropped, and saved again

/** A valuation the shopper accepted (the service showed it at payment start), in cents. */
const KNOWN_VALUATION: AcceptedValuation = {
  valuationState: "known",
  valuationItemId: "tradein_1",
  valuationValue: 12_345,
  valuationCurrency: "EUR",
  valuationNote: "conformance: accepted at payment start",
};
const NO_VALUATION: AcceptedValuation = {
  valuationState: "none",
  valuationItemId: null,
  valuationValue: null,
  valuationCurrency: null,
  valuationNote: "conformance: no accepted trade-in",
};

/** Keeps the seeded cart's details, as the checkout route does at payment start. */
function keep(
  host: ConformanceHost,
  cart: SeededCart,
  cartId: string,
  valuation?: AcceptedValuation,
) {
  return host.servicePay.transaction((tx) =>
    tx.saveCheckout({
      cartId,
      sessionId: cart.sessionId,
      customerId: null,
      details: cart.details,
      ...(valuation ? { valuation } : {}),
    }),
  );
}

const valuationOf = (kept: AcceptedValuation | null) =>
  kept && {
    valuationState: kept.valuationState,
    valuationItemId: kept.valuationItemId,
    valuationValue: kept.valuationValue,
    valuationCurrency: kept.valuationCurrency,
    valuationNote: kept.valuationNote,
  };

async function dropCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  // Dropping what was never kept (the shopper closed a payment that never started) is harmless.
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  await keep(host, cart, cartId, NOT_LOOKED_UP);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "open while kept").toBe(true);
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  expect(
    await host.servicePay.transaction((tx) => tx.loadCheckout(cartId)),
    "loadCheckout once dropped",
  ).toBeNull();
  expect(
    await host.servicePay.openCartCheckout(cart.sessionId),
    "openCartCheckout once dropped",
  ).toBeNull();
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "no payment open once dropped").toBe(
    false,
  );
  // Dropped twice (the shopper's give-up sent again): still harmless, the cart still open.
  await host.servicePay.transaction((tx) => tx.dropCheckout(cartId));
  expect(await cartIdOf(host, cart), "the cart stays open").toBe(cartId);
}

async function resaveCheckout(host: ConformanceHost) {
  const cart = await host.seedOpenCart();
  const cartId = await cartIdOf(host, cart);
  // The first save is 40 minutes old (Date moved back; a store that takes the time from its
  // database instead keeps the real time, and the refresh below holds for it too). The shopper
  // starts the payment again: the details are saved again and must count as kept now, or the
  // payment would read as given up (pending-order.ts, servicePaymentOpen: the modal's window).
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    vi.setSystemTime(Date.now() - 40 * 60 * 1000);
    await keep(host, cart, cartId, KNOWN_VALUATION);
  } finally {
    vi.useRealTimers();
  }
  const before = Date.now();
  await keep(host, cart, cartId);
  const resaved = await host.servicePay.transaction((tx) => tx.loadCheckout(cartId));
  if (!resaved) throw new Error("loadCheckout gives nothing after a re-save");
  // A database clock may keep whole seconds only: a second of slack below.
  expect(resaved.keptAt.getTime(), "keptAt refreshed by the re-save").toBeGreaterThanOrEqual(
    before - 1_000,
  );
  expect(resaved.keptAt.getTime(), "keptAt is now").toBeLessThan(Date.now() + 60_000);
  expect(await servicePaymentOpen(deps(host), cart.sessionId), "the payment is open again").toBe(
    true,
  );
  expect(valuationOf(resaved), "the kept valuation, the re-save omitting it").toEqual(
    KNOWN_VALUATION,
  );
  await keep(host, cart, cartId, NO_VALUATION);
  expect(
    valuationOf(await host.servicePay.transaction((tx) => tx.loadCheckout(cartId))),
    "the valuation the re-save gave",
  ).toEqual(NO_VALUATION);
}

// ---------------------------------------------------------------------------------------------
// The back office's order updates

async function orderUpdateAgainstCurrent(host: ConformanceHost) {
  const { forServiceStatus, afterUpdate, canTransition } = host.statuses;
  const { payment_completed: paid, completed } = forServiceStatus;
  // An update the paid order may take but the completed one may not (this shop: a partial
  // shipment); a host without one has nothing to check here.
  const types = Object.keys(afterUpdate) as (keyof typeof afterUpdate)[];
  const type = types.find((t) => {
    const after = afterUpdate[t];
    return after !== null && canTransition(paid, after) && !canTransition(completed, after);
  });
  if (!type) return;
  const after = afterUpdate[type] as string;
  const orders = host.orders;
  if (!orders) {
    throw new Error(
      'this host has no ServiceOrderStore (orders): run the suite with { skip: ["order-update-against-current"] }',
    );
  }
  const { cart, cartId, order } = await pendingOrder(host);
  await receiveNotification(deps(host), notification(cart, cartId, "payment_completed"));
  const placed = await orders.order(order.id);
  if (!placed) throw new Error("ServiceOrderStore.order gives no order for a placed order");
  // While the service accepts the admin's update, the order's completed notification lands.
  const result = await sendOrderUpdate(
    {
      orders,
      statuses: host.statuses,
      client: {
        updateOrder: async () => {
          await receiveNotification(deps(host), notification(cart, cartId, "completed"));
          return { ok: true };
        },
      },
    },
    {
      orderId: order.id,
      type,
      quantities: Object.fromEntries(placed.items.map((item) => [item.productId, 1])),
    },
  );
  expect(result.ok, JSON.stringify(result)).toBe(true);
  expect((await orderOf(host, cartId)).status, `not moved back to ${after}`).toBe(completed);
  const history = await host.servicePay.transaction((tx) => tx.statusHistory(order.id));
  expect(history, `history: ${history.join(" ← ")}`).not.toContain(after);
}

// ---------------------------------------------------------------------------------------------
// register-purchase rows and the retry job

/** A service that has the shopper's trade-in accepted and counts register-purchase calls per
 *  order number; `failFirst` answers each order's first call 503 (queued for the retry job). */
function tradeInService(options: { failFirst?: boolean } = {}) {
  const calls = new Map<string, number>();
  const client: TradeInClient = {
    getSession: async (hash) =>
      sessionSchema.parse({
        session_id: hash,
        tradein_item: {
          id: "tradein_1",
          status: "accepted",
          valid_until: "2099-01-01T00:00:00.000Z",
        },
      }),
    getTradeInItem: async () => {
      throw new ServiceApiError({ status: 404, method: "GET", path: "/core/tradeinitems/" });
    },
    registerPurchase: async (body) => {
      const key = body.order_id ?? "";
      const n = (calls.get(key) ?? 0) + 1;
      calls.set(key, n);
      if (options.failFirst && n === 1) {
        throw new ServiceApiError({ status: 503, method: "POST", path: "/register-purchase" });
      }
      return { duplicate: false };
    },
  };
  return { client, calls };
}

function tradeInDeps(host: ConformanceHost, client: TradeInClient, now = NOW): TradeInDeps {
  return { store: host.tradeIns, client, now: () => now };
}

/** What a new registration row starts with (shop-ports.ts, TradeInRegistrationStore.create). */
const NEW_REGISTRATION = { precheck: true, attempts: 0, unreachable: false } as const;

const shopper = (cart: SeededCart) => ({ sessionId: cart.sessionId, salt: `salt-${randomUUID()}` });

async function oneRegistrationPerOrder(host: ConformanceHost) {
  // Through the kit's card step, the same order submitted many times at once.
  const { cart, order } = await pendingOrder(host);
  const service = tradeInService();
  const who = shopper(cart);
  const results = await atOnce(CONCURRENT_COPIES, () =>
    applyTradeInAfterCardPayment(tradeInDeps(host, service.client), {
      orderId: order.id,
      shopper: who,
    }),
  );
  // Each caller is told the one row's state: queued while the attempt runs, then registered.
  const told = results.map((r) => r.status).filter((st) => st !== "registered" && st !== "queued");
  expect(told, "every caller is told queued or registered").toEqual([]);
  expect(service.calls.get(order.number), "register-purchase sent once").toBe(1);
  expect(await host.tradeIns.find(order.id)).toMatchObject({ status: "registered", attempts: 1 });

  // The store's own answer: one insert wins, the others are told the order has its row.
  const other = await pendingOrder(host);
  const created = await atOnce(CONCURRENT_COPIES, () =>
    host.tradeIns.create({
      orderId: other.order.id,
      sessionHash: "hash",
      cart: "e30=",
      orderAmount: other.order.total,
      customerId: null,
      status: "queued",
      ...NEW_REGISTRATION,
      nextAttemptAt: NOW,
    }),
  );
  expect(count(created, true), "create answers true once").toBe(1);
  expect(count(created, false)).toBe(CONCURRENT_COPIES - 1);
}

async function oneClaimPerAttempt(host: ConformanceHost) {
  const { order } = await pendingOrder(host);
  const made = await host.tradeIns.create({
    orderId: order.id,
    sessionHash: "hash",
    cart: "e30=",
    orderAmount: order.total,
    customerId: null,
    status: "queued",
    ...NEW_REGISTRATION,
    nextAttemptAt: NOW,
  });
  expect(made).toBe(true);
  const row = await host.tradeIns.find(order.id);
  if (!row) throw new Error("find gives no row after create");
  const claims = await atOnce(CONCURRENT_COPIES, () => host.tradeIns.claim(row, LATER));
  expect(count(claims, true), "one claimer holds the attempt").toBe(1);
  expect((await host.tradeIns.find(order.id))?.attempts).toBe(row.attempts + 1);
  // The row as first read is stale now: claiming with it again fails.
  expect(await host.tradeIns.claim(row, LATER)).toBe(false);
}

async function leaseBeforeClaim(host: ConformanceHost) {
  const { cart, order } = await pendingOrder(host);
  // The retry job's lease lands right after the card step's insert, before its claim.
  let leased: Awaited<ReturnType<TradeInRegistrationStore["due"]>> = [];
  const creatorStore: TradeInRegistrationStore = Object.assign(Object.create(host.tradeIns), {
    async create(row: Parameters<TradeInRegistrationStore["create"]>[0]) {
      const made = await host.tradeIns.create(row);
      if (made) leased = await host.tradeIns.due(NOW, { limit: 10, all: false, until: LATER });
      return made;
    },
  });
  const jobStore: TradeInRegistrationStore = Object.assign(Object.create(host.tradeIns), {
    async due() {
      return leased;
    },
  });
  const service = tradeInService();
  let jobStarted = false;
  let jobRun: RetryRunSummary | undefined;
  const client: TradeInClient = {
    ...service.client,
    // While the creator's register-purchase is in flight, the job runs what it leased.
    async registerPurchase(body) {
      if (!jobStarted) {
        jobStarted = true;
        jobRun = await retryDueRegistrations({ store: jobStore, client, now: () => NOW });
      }
      return service.client.registerPurchase(body);
    },
  };
  const result = await applyTradeInAfterCardPayment(
    { store: creatorStore, client, now: () => NOW },
    { orderId: order.id, shopper: shopper(cart) },
  );
  expect(
    leased.map((l) => l.orderId),
    "the job leased the new row",
  ).toEqual([order.id]);
  expect(result.status).toBe("registered");
  expect(service.calls.get(order.number), "register-purchase sent once").toBe(1);
  expect(jobRun, "the job left the row to its creator").toMatchObject({ due: 1, stillQueued: 1 });
  expect(await host.tradeIns.find(order.id)).toMatchObject({ status: "registered", attempts: 1 });
}

async function retryRunnersClaimOnce(host: ConformanceHost) {
  const DUE = 8;
  const RUNNERS = 5;
  const first = tradeInService({ failFirst: true });
  const orders: ShopOrder[] = [];
  for (let i = 0; i < DUE; i++) {
    const { cart, order } = await pendingOrder(host);
    // The first attempt meets a 503: the row is queued for the retry job.
    const result = await applyTradeInAfterCardPayment(tradeInDeps(host, first.client), {
      orderId: order.id,
      shopper: shopper(cart),
    });
    expect(result.status).toBe("queued");
    orders.push(order);
  }
  // One more queued row that is not due until long after the runners' time.
  const notDue = await pendingOrder(host);
  await host.tradeIns.create({
    orderId: notDue.order.id,
    sessionHash: "hash",
    cart: "e30=",
    orderAmount: notDue.order.total,
    customerId: null,
    status: "queued",
    ...NEW_REGISTRATION,
    nextAttemptAt: new Date(LATER.getTime() + 60 * 60 * 1000),
  });

  const retry = tradeInService();
  const summaries = await atOnce(RUNNERS, () =>
    retryDueRegistrations(tradeInDeps(host, retry.client, LATER), { limit: DUE + 5 }),
  );
  const handed = summaries.reduce((sum, s) => sum + s.due, 0);
  expect(handed, `due rows handed out: ${summaries.map((s) => s.due).join(" + ")}`).toBe(DUE);
  for (const order of orders) {
    expect(retry.calls.get(order.number), `retries sent for ${order.number}`).toBe(1);
    expect((await host.tradeIns.find(order.id))?.status).toBe("registered");
  }
  expect(retry.calls.get(notDue.order.number), "the row not due was left alone").toBeUndefined();
  expect((await host.tradeIns.find(notDue.order.id))?.attempts).toBe(0);
}

async function tradeInSeen(host: ConformanceHost) {
  const record = host.recordTradeInSeen?.bind(host);
  if (!record) {
    throw new Error(
      'this host records no trade-in seen (recordTradeInSeen): run the suite with { skip: ["trade-in-seen"] }',
    );
  }
  const seen = host.tradeIns.tradeInSeen.bind(host.tradeIns);
  expect(await seen(`unknown-${randomUUID()}`), "an unknown session").toBeNull();
  const [a, b] = [await host.issueSession(), await host.issueSession()];
  await record(a.identity.sessionId, "tradein_a1");
  expect(await seen(a.identity.sessionId), "the trade-in recorded for the session").toBe(
    "tradein_a1",
  );
  expect(await seen(b.identity.sessionId), "only for that session").toBeNull();
  await record(b.identity.sessionId, "tradein_b1");
  await record(a.identity.sessionId, "tradein_a2");
  expect(await seen(a.identity.sessionId), "the last one recorded").toBe("tradein_a2");
  expect(await seen(b.identity.sessionId), "each session its own").toBe("tradein_b1");
}

async function typedUnreachable(host: ConformanceHost) {
  // A queued registration whose lastError READS like a network failure, finished reachable (a
  // 503 whose words mention a network): not unreachable. lastError is words for people.
  const { order } = await pendingOrder(host);
  const before = new Date(Date.now() - 60_000);
  expect(
    await host.tradeIns.create({
      orderId: order.id,
      sessionHash: "hash",
      cart: "e30=",
      orderAmount: order.total,
      customerId: null,
      status: "queued",
      ...NEW_REGISTRATION,
      nextAttemptAt: NOW,
    }),
  ).toBe(true);
  const row = await host.tradeIns.find(order.id);
  if (!row) throw new Error("find gives no row after create");
  expect(row, "a new row as created").toMatchObject(NEW_REGISTRATION);
  expect(await host.tradeIns.claim(row, LATER)).toBe(true);
  await host.tradeIns.finish(
    row,
    {
      status: "queued",
      precheck: true,
      unreachable: false,
      reason: "",
      lastError: "network: the upstream network answered 503",
      nextAttemptAt: LATER,
    },
    null,
  );
  expect(
    await host.tradeIns.unreachableSince(before),
    "a lastError that reads like a network failure, finished unreachable: false",
  ).toBe(false);

  // The kit's card step meets no connection at all: the registration is finished unreachable.
  const refused = (method: string, path: string) =>
    new ServiceNetworkError(method, path, { cause: { code: "ECONNREFUSED" } });
  const down: TradeInClient = {
    getSession: async () => {
      throw refused("GET", "/core/sessions/");
    },
    getTradeInItem: async () => {
      throw refused("GET", "/core/tradeinitems/");
    },
    registerPurchase: async () => {
      throw refused("POST", "/register-purchase");
    },
  };
  const other = await pendingOrder(host);
  const result = await applyTradeInAfterCardPayment(tradeInDeps(host, down), {
    orderId: other.order.id,
    shopper: shopper(other.cart),
  });
  expect(result.status, "queued for the retry job").toBe("queued");
  expect(await host.tradeIns.find(other.order.id), "the row says so").toMatchObject({
    status: "queued",
    unreachable: true,
  });
  expect(
    await host.tradeIns.unreachableSince(before),
    "a registration finished unreachable: true since then",
  ).toBe(true);
  expect(
    await host.tradeIns.unreachableSince(new Date(Date.now() + 60_000)),
    "none finished after `since`",
  ).toBe(false);
}

// ---------------------------------------------------------------------------------------------
// The token store

/** Yields to other tasks instead of waiting on the clock. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A token endpoint that answers every grant with a new access token, counting grants. */
function tokenEndpoint(prefix: string) {
  let grants = 0;
  const fake = createFakeDeps(async () => {
    grants += 1;
    const grant = grants;
    // A few turns of the event loop before the answer, as a real endpoint takes a round trip:
    // renewers that all held the lease at once would all have asked before any one saved.
    for (let i = 0; i < 5; i++) await yieldTurn();
    return reply(200, {
      access_token: `${prefix}-access-${grant}`,
      refresh_token: `${prefix}-refresh-${grant}`,
      user_id: `${prefix}-user`,
      merchant_id: "merchant-1",
      expires_in: 3600,
      scope: "core payments valuations updates",
    });
  });
  return { transport: new HttpTransport("http://service.test", fake.deps), grants: () => grants };
}

const credentials = {
  clientId: "client",
  clientSecret: "secret",
  username: "user",
  password: "password",
};

async function tokensSealed(host: ConformanceHost) {
  const prefix = `raw${randomUUID().replace(/-/g, "")}`;
  const endpoint = tokenEndpoint(prefix);
  const manager = new TokenManager({
    credentials,
    transport: endpoint.transport,
    store: host.tokens,
  });
  const tokens = await manager.getTokens();
  const persisted = await host.persistedTokenText();
  expect(persisted.length, "persistedTokenText shows what the store wrote").toBeGreaterThan(0);
  for (const [field, raw] of [
    ["access token", tokens.accessToken],
    ["refresh token", tokens.refreshToken],
    ["user id", tokens.userId],
  ] as const) {
    expect(persisted.includes(raw), `the raw ${field} is in what the store persists`).toBe(false);
  }
  expect(await host.tokens.load(), "load opens what save sealed").toEqual(tokens);
}

async function renewalLease(host: ConformanceHost) {
  const { tokens } = host;
  const won = await atOnce(CONCURRENT_COPIES, (i) =>
    tokens.acquireRenewalLease(`holder-${i}`, 30_000),
  );
  expect(count(won, true), "exactly one holder").toBe(1);
  const holder = `holder-${won.indexOf(true)}`;
  const other = holder === "holder-0" ? "holder-1" : "holder-0";
  expect(await tokens.acquireRenewalLease(holder, 30_000), "its holder retakes it").toBe(true);
  expect(await tokens.acquireRenewalLease(other, 30_000)).toBe(false);
  await tokens.releaseRenewalLease(other);
  expect(await tokens.acquireRenewalLease(other, 30_000), "not released by another").toBe(false);
  await tokens.releaseRenewalLease(holder);
  expect(await tokens.acquireRenewalLease(other, 30_000), "free once released").toBe(true);
  await tokens.releaseRenewalLease(other);
  // A lease of no time has expired at once: its holder died, the next one takes it.
  expect(await tokens.acquireRenewalLease("dying", 0)).toBe(true);
  expect(await tokens.acquireRenewalLease("next", 30_000), "free once expired").toBe(true);
}

async function oneGrantForManyRenewers(host: ConformanceHost) {
  const MANAGERS = 20;
  const expired: StoredTokens = {
    accessToken: "expired-access",
    refreshToken: "expired-refresh",
    userId: "user",
    merchantId: "merchant-1",
    scope: "core payments valuations updates",
    accessExpiresAt: new Date(Date.now() - 60_000),
  };
  await host.tokens.save(expired);
  const endpoint = tokenEndpoint("shared");
  const tokens = await atOnce(MANAGERS, (i) =>
    new TokenManager({
      credentials,
      transport: endpoint.transport,
      store: host.tokens,
      holder: `instance-${i}`,
      sleep: yieldTurn,
    }).getAccessToken(),
  );
  expect(endpoint.grants(), "token grants").toBe(1);
  expect(new Set(tokens), "every manager has the one new token").toEqual(
    new Set(["shared-access-1"]),
  );
}
