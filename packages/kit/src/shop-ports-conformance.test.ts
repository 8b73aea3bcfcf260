import { describe, expect, it } from "vitest";
import { NOT_LOOKED_UP } from "./accepted-valuation.js";
import { orderTotal } from "./cart.js";
import type {
  CheckoutDetails,
  KeptCheckout,
  NotificationOutcome,
  OrderStatusRules,
  PlacedOrder,
  ShopCustomer,
  ShopOrder,
  ShopperIdentity,
  StoredTokens,
  TradeInRegistration,
  WaitingNotification,
} from "./shop-ports.js";
import {
  type ConformanceHost,
  shopPortsConformanceChecks,
} from "./test-support/shop-ports-conformance.js";
import { contractStatusNames } from "./test-support/status-names.js";

// The conformance suite must catch a host that gets the store wrong. This one is deliberately
// naive, the mistakes a first adapter makes: duplicates decided by reading first and inserting
// after an `await` (no unique key), no transaction (each write lands at once, nothing rolls
// back), claims and the lease by read-then-write, tokens stored in plain text, the open cart's
// details read by session whether the cart is still open or not. The suite's key
// checks must fail against it; a check it meets sequentially must pass, so the failures come
// from what it gets wrong and not from the suite's own set-up.

/** Another caller's turn: what a database round trip gives away between a read and a write. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const LADDER = [
  "pending",
  "payment_completed",
  "completed",
  "partially_shipped",
  "shipped",
  "partially_returned",
  "returned",
];
const HELD = "on_hold";
const TRANSITIONS: Record<string, string[]> = {
  pending: ["payment_completed", HELD],
  [HELD]: ["payment_completed"],
  payment_completed: ["partially_shipped", "shipped", "completed"],
  partially_shipped: ["shipped"],
  shipped: ["completed", "partially_returned", "returned"],
  completed: ["partially_returned", "returned"],
  partially_returned: ["returned"],
};

const statuses: OrderStatusRules = {
  ...contractStatusNames,
  isKnown: (status) => LADDER.includes(status) || status === HELD,
  canReach: (from, to) => LADDER.indexOf(to) > LADDER.indexOf(from),
  canTransition: (from, to) => TRANSITIONS[from]?.includes(to) ?? false,
  isPaidOrLater: (status) => LADDER.indexOf(status) >= 1,
  held: HELD,
};

const ADDRESS = {
  given_name: "Ada",
  family_name: "Lovelace",
  phone: "+353 1 555 0100",
  address: "1 Main Street",
  city: "Dublin",
  state: "",
  country_code: "IE",
  postal_code: "D02 X285",
};
const DETAILS: CheckoutDetails = {
  email: "ada@example.com",
  billing: ADDRESS,
  shipping: ADDRESS,
  shippingMethod: "standard",
};
const DELIVERY = { id: "standard", name: "Standard", price: 500, url: "http://shop.test/d" };
const LINE = {
  productId: "phone",
  name: "Phone",
  description: "A phone",
  url: "http://shop.test/p/phone",
  quantity: 1,
  price: 10_000,
  tax: 2_300,
};

type StoredNotification = WaitingNotification & {
  orderId: string | null;
  outcome: NotificationOutcome;
};

function naiveHost(): ConformanceHost {
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_${++seq}`;
  const carts: { id: string; sessionId: string; checkedOut: boolean }[] = [];
  const orders: (PlacedOrder & { createdAt: Date })[] = [];
  const history = new Map<string, string[]>();
  const notifications: StoredNotification[] = [];
  const checkouts = new Map<string, KeptCheckout>();
  const registrations: (TradeInRegistration & {
    nextAttemptAt: Date | null;
    lastError?: string;
    updatedAt?: Date;
  })[] = [];
  const customers = new Map<string, ShopCustomer>();
  const seen = new Map<string, string>();
  let tokens: StoredTokens | null = null;
  let lease: { holder: string; until: number } | null = null;

  const openCart = (sessionId: string) =>
    carts.find((c) => c.sessionId === sessionId && !c.checkedOut);
  const snapshot = (order: PlacedOrder): ShopOrder => ({ ...order });

  const tx = {
    async openCartId(sessionId: string) {
      return openCart(sessionId)?.id ?? null;
    },
    async findSessionOrder(sessionId: string, where: { cartId: string } | { since: Date }) {
      const mine = orders.filter((o) => o.sessionId === sessionId);
      const found =
        "cartId" in where
          ? mine.find((o) => o.cartId === where.cartId)
          : mine.filter((o) => o.createdAt >= where.since).at(-1);
      return found ? snapshot(found) : null;
    },
    async saveCheckout(kept: Omit<KeptCheckout, "keptAt" | "valuationState" | "asked"> & object) {
      const before = checkouts.get(kept.cartId);
      await turn();
      const { valuation, ...rest } = kept as typeof kept & { valuation?: object };
      checkouts.set(kept.cartId, {
        ...(before ?? {
          valuationState: null,
          valuationItemId: null,
          valuationValue: null,
          valuationCurrency: null,
          valuationNote: null,
        }),
        ...(valuation ?? {}),
        ...(rest as Omit<KeptCheckout, "keptAt" | "asked">),
        asked: valuation ? null : (before?.asked ?? null),
        keptAt: new Date(),
      });
    },
    async loadCheckout(cartId: string) {
      return checkouts.get(cartId) ?? null;
    },
    async dropCheckout(cartId: string) {
      checkouts.delete(cartId);
    },
    async createPendingOrder(params: {
      sessionId: string;
      customerId: string | null;
      valuation: object;
    }) {
      const cart = openCart(params.sessionId);
      if (!cart) return null;
      await turn();
      cart.checkedOut = true;
      const order = {
        id: newId("order"),
        number: newId("SO"),
        cartId: cart.id,
        sessionId: params.sessionId,
        customerId: params.customerId,
        status: "pending",
        serviceOrderId: null,
        paymentMethod: "service_pay",
        currency: "EUR",
        price: LINE.price,
        tax: LINE.tax,
        shippingPrice: DELIVERY.price,
        discountTotal: 0,
        tradeInDiscount: 0,
        total: LINE.price + LINE.tax + DELIVERY.price,
        tradeInStatus: null,
        tradeInMessage: null,
        valuationState: null,
        valuationItemId: null,
        valuationValue: null,
        valuationCurrency: null,
        valuationNote: null,
        ...params.valuation,
        items: [LINE],
        delivery: DELIVERY,
        createdAt: new Date(),
      };
      orders.push(order);
      history.set(order.id, ["pending"]);
      return snapshot(order);
    },
    async claimNotification(n: Omit<WaitingNotification, "id">) {
      const taken = notifications.some((s) => s.dedupeKey === n.dedupeKey);
      await turn();
      if (taken) return null;
      const id = newId("notification");
      notifications.push({ ...n, id, orderId: null, outcome: "early" });
      return id;
    },
    async notificationIdTaken(notificationId: string, dedupeKey: string) {
      return notifications.some(
        (s) => s.notificationId === notificationId && s.dedupeKey !== dedupeKey,
      );
    },
    async notificationOutcome(dedupeKey: string) {
      const stored = notifications.find((s) => s.dedupeKey === dedupeKey);
      return stored ? { outcome: stored.outcome, orderId: stored.orderId } : null;
    },
    async settleNotification(id: string, orderId: string, outcome: NotificationOutcome) {
      const stored = notifications.find((s) => s.id === id);
      if (stored) Object.assign(stored, { orderId, outcome });
    },
    async waitingNotifications(cartId: string, serviceOrderId: string | null) {
      return notifications
        .filter(
          (s) =>
            s.orderId === null &&
            (s.cartId === cartId || (serviceOrderId && s.serviceOrderId === serviceOrderId)),
        )
        .map(({ orderId: _o, outcome: _x, ...n }) => n);
    },
    async hasWaitingNotification(cartId: string) {
      return notifications.some((s) => s.orderId === null && s.cartId === cartId);
    },
    async findOrderFor(serviceOrderId: string | null, cartId: string | null) {
      // No lock: read, and let the caller plan from a status another caller may replace.
      const found =
        orders.find((o) => serviceOrderId && o.serviceOrderId === serviceOrderId) ??
        orders.find((o) => cartId && o.cartId === cartId);
      return found ? snapshot(found) : null;
    },
    async statusHistory(orderId: string) {
      return [...(history.get(orderId) ?? [])].reverse();
    },
    async changeOrder(order: ShopOrder, change: Parameters<typeof writeChange>[1]) {
      await turn();
      return writeChange(order, change);
    },
  };

  function writeChange(
    order: ShopOrder,
    change: {
      to?: string;
      serviceOrderId?: string;
      tradeInDiscount?: number;
      tradeInStatus?: string;
      tradeInMessage?: string | null;
    },
  ): ShopOrder {
    const stored = orders.find((o) => o.id === order.id);
    if (!stored) throw new Error(`no order ${order.id}`);
    const tradeInDiscount = change.tradeInDiscount ?? order.tradeInDiscount;
    Object.assign(stored, {
      status: change.to ?? order.status,
      tradeInDiscount,
      total: orderTotal({ ...order, tradeInDiscount }),
      ...(change.serviceOrderId !== undefined ? { serviceOrderId: change.serviceOrderId } : {}),
      ...(change.tradeInStatus !== undefined ? { tradeInStatus: change.tradeInStatus } : {}),
      ...(change.tradeInMessage !== undefined ? { tradeInMessage: change.tradeInMessage } : {}),
    });
    history.get(order.id)?.push(stored.status);
    return snapshot(stored);
  }

  return {
    // No transaction: the callback's writes land as they are made, and stay when it throws.
    servicePay: {
      transaction: (fn) => fn(tx as never),
      // The session's latest kept details, whether or not their cart is still open.
      async openCartCheckout(sessionId) {
        return [...checkouts.values()].filter((k) => k.sessionId === sessionId).at(-1) ?? null;
      },
    },
    statuses,
    orders: {
      async order(orderId) {
        const order = orders.find((o) => o.id === orderId);
        return order ? { ...order } : null;
      },
      async changeOrder(order, change) {
        // Written from the order as the caller read it, unlocked: a status it moved to since
        // is overwritten.
        await turn();
        writeChange(order, change);
      },
      async findOrders(serviceOrderIds, cartIds) {
        return orders
          .filter(
            (o) =>
              (o.serviceOrderId && serviceOrderIds.includes(o.serviceOrderId)) ||
              cartIds.includes(o.cartId),
          )
          .map(snapshot);
      },
      async needsAttention() {
        return { held: [], reusedNotificationIds: [] };
      },
    },
    tradeIns: {
      async order(orderId) {
        const order = orders.find((o) => o.id === orderId);
        return order ? { ...order } : null;
      },
      async find(orderId) {
        const row = registrations.find((r) => r.orderId === orderId);
        return row ? { ...row } : null;
      },
      async create(row) {
        const taken = registrations.some((r) => r.orderId === row.orderId);
        await turn();
        if (taken) return false;
        registrations.push({ ...row, id: newId("registration") });
        return true;
      },
      async claim(row, until) {
        const current = registrations.find((r) => r.id === row.id);
        if (current?.status !== "queued" || current.attempts !== row.attempts) {
          return false;
        }
        await turn();
        Object.assign(current, { attempts: row.attempts + 1, nextAttemptAt: until });
        return true;
      },
      async finish(row, result, change) {
        const current = registrations.find((r) => r.id === row.id);
        if (current) {
          Object.assign(current, {
            status: result.status,
            precheck: result.precheck,
            unreachable: result.unreachable,
            lastError: result.lastError,
            nextAttemptAt: result.nextAttemptAt,
            updatedAt: new Date(),
          });
        }
        const order = orders.find((o) => o.id === row.orderId);
        if (change && order) writeChange(order, change);
      },
      async due(now, { limit, all, until }) {
        const rows = registrations
          .filter(
            (r) =>
              r.status === "queued" &&
              (all || (r.nextAttemptAt !== null && r.nextAttemptAt <= now)),
          )
          .slice(0, limit);
        await turn();
        for (const row of rows) row.nextAttemptAt = until;
        return rows.map((r) => ({ orderId: r.orderId, attempts: r.attempts }));
      },
      async tradeInSeen(sessionId) {
        return seen.get(sessionId) ?? null;
      },
      async carryTradeInSeen(from, to) {
        const tradeInId = seen.get(from);
        if (tradeInId !== undefined) seen.set(to, tradeInId);
      },
      async unreachableSince(since) {
        return registrations.some(
          (r) => r.status === "queued" && r.unreachable && (r.updatedAt ?? 0) >= since,
        );
      },
    },
    // The session: the identity as JSON in a `naive` cookie (sealing is the host's business).
    identity: {
      async ofRequest(request) {
        const value = (request.headers.get("cookie") ?? "")
          .split(";")
          .map((part) => part.trim())
          .find((part) => part.startsWith("naive="))
          ?.slice("naive=".length);
        return value ? (JSON.parse(decodeURIComponent(value)) as ShopperIdentity) : null;
      },
    },
    async issueSession(customerId) {
      const identity: ShopperIdentity = {
        sessionId: newId("session"),
        salt: newId("salt"),
        ...(customerId ? { customerId } : {}),
      };
      return { cookie: `naive=${encodeURIComponent(JSON.stringify(identity))}`, identity };
    },
    shopper: {
      async customer(customerId) {
        return customers.get(customerId) ?? null;
      },
      async openCart(sessionId) {
        const cart = openCart(sessionId);
        return cart ? { id: cart.id, currency: "EUR", items: [LINE] } : null;
      },
      async loadCheckout(cartId) {
        return checkouts.get(cartId) ?? null;
      },
      async noteAskedToCollect(kept, asked) {
        const row = checkouts.get(kept.cartId);
        if (row?.sessionId === kept.sessionId && row.keptAt.getTime() === kept.keptAt.getTime()) {
          checkouts.set(kept.cartId, { ...row, asked });
        }
      },
      shippingMethod: () => DELIVERY,
      defaultShippingMethod: DELIVERY.id,
    },
    async seedCustomer() {
      const customer: ShopCustomer = {
        id: newId("customer"),
        email: "ada@example.com",
        givenName: "Ada",
        familyName: "Lovelace",
        address: ADDRESS,
      };
      customers.set(customer.id, customer);
      return { ...customer };
    },
    async recordTradeInSeen(sessionId, tradeInId) {
      seen.set(sessionId, tradeInId);
    },
    tokens: {
      async load() {
        return tokens ? { ...tokens } : null;
      },
      async save(next) {
        tokens = { ...next };
      },
      async acquireRenewalLease(holder, ttlMs) {
        const now = Date.now();
        const free = !lease || lease.until <= now || lease.holder === holder;
        await turn();
        if (free) lease = { holder, until: now + ttlMs };
        return free;
      },
      async releaseRenewalLease(holder) {
        if (lease?.holder === holder) lease = null;
      },
    },
    async seedOpenCart() {
      const sessionId = newId("session");
      carts.push({ id: newId("cart"), sessionId, checkedOut: false });
      return {
        sessionId,
        details: DETAILS,
        owes: LINE.price + LINE.tax + DELIVERY.price,
        currency: "EUR",
      };
    },
    async persistedTokenText() {
      return JSON.stringify(tokens);
    },
  };
}

const checks = new Map(shopPortsConformanceChecks(async () => naiveHost()).map((c) => [c.key, c]));

function run(key: string): Promise<void> {
  const check = checks.get(key);
  if (!check) throw new Error(`no check ${key}`);
  return check.run();
}

describe("the shop-ports conformance suite against a naive host", () => {
  it.each([
    ["rollback", /the error thrown inside|the cart is still open|no order of the cart/],
    ["duplicate-notification", /outcomes: applied, applied/],
    ["duplicate-early-notification", /outcomes: early, early/],
    ["one-order-per-cart", /created once/],
    ["webhook-mode-one-order", /one delivery is not a duplicate/],
    ["order-update-against-current", /not moved back to shipped/],
    ["one-registration-per-order", /register-purchase sent once/],
    ["one-claim-per-attempt", /one claimer holds the attempt/],
    ["retry-job-claims", /due rows handed out/],
    ["renewal-lease", /exactly one holder/],
    ["one-grant", /token grants/],
    ["unique-service-order", /thrown: null/],
    ["tokens-sealed", /the raw access token is in what the store persists/],
    ["open-cart-checkout", /the cart is an order/],
    ["asked-amount", /nothing was asked: the cart stays open/],
  ])("fails %s", async (key, why) => {
    await expect(run(key)).rejects.toThrow(why);
  });

  it.each([
    "session-identity",
    "shopper-customer",
    "shopper-open-cart",
    "shopper-delivery",
    "shopper-checkout",
    "drop-checkout",
    "resave-checkout",
    "trade-in-seen",
    "typed-unreachable",
  ])(
    "passes %s, which it gets right (so each broken host below fails for its one mistake)",
    async (key) => {
      await expect(run(key)).resolves.toBeUndefined();
    },
  );

  it("passes what it gets right one call at a time: an early notification applied when the order is created", async () => {
    await expect(run("early-notification")).resolves.toBeUndefined();
  });

  it("names each check once", () => {
    const all = shopPortsConformanceChecks(async () => naiveHost());
    expect(new Set(all.map((c) => c.key)).size).toBe(all.length);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
  });
});

/** The check `key` run against the naive host with one more mistake, made by `breakIt`. */
function runBroken(key: string, breakIt: (host: ConformanceHost) => void): Promise<void> {
  const check = shopPortsConformanceChecks(async () => {
    const host = naiveHost();
    breakIt(host);
    return host;
  }).find((c) => c.key === key);
  if (!check) throw new Error(`no check ${key}`);
  return check.run();
}

describe("each check the naive host passes fails against a host that breaks it", () => {
  it.each<[string, string, (host: ConformanceHost) => void, RegExp]>([
    [
      "session-identity",
      "an anonymous request is given a new session",
      (host) => {
        const { ofRequest } = host.identity;
        host.identity = {
          ofRequest: async (request) =>
            (await ofRequest(request)) ?? { sessionId: "fresh", salt: "fresh" },
        };
      },
      /without the shopper's cookie/,
    ],
    [
      "session-identity",
      "every read renews the salt",
      (host) => {
        const { ofRequest } = host.identity;
        let reads = 0;
        host.identity = {
          ofRequest: async (request) => {
            const who = await ofRequest(request);
            reads += 1;
            return who && { ...who, salt: `${who.salt}-${reads}` };
          },
        };
      },
      /the identity the host issued|read twice/,
    ],
    [
      "session-identity",
      "the signed-in customer is dropped",
      (host) => {
        const { ofRequest } = host.identity;
        host.identity = {
          ofRequest: async (request) => {
            const who = await ofRequest(request);
            return who && { sessionId: who.sessionId, salt: who.salt };
          },
        };
      },
      /the signed-in customer's identity/,
    ],
    [
      "shopper-customer",
      "an unknown customer is given a guest",
      (host) => {
        const { customer } = host.shopper;
        host.shopper.customer = async (id) =>
          (await customer(id)) ?? {
            id,
            email: "guest@example.com",
            givenName: "",
            familyName: "",
            address: null,
          };
      },
      /an unknown customer/,
    ],
    [
      "shopper-open-cart",
      "a line's unit price is not whole cents (tax-inclusive price divided back)",
      (host) => {
        const { openCart } = host.shopper;
        host.shopper.openCart = async (sessionId, base) => {
          const cart = await openCart(sessionId, base);
          return (
            cart && { ...cart, items: cart.items.map((i) => ({ ...i, price: i.price / 1.23 })) }
          );
        };
      },
      /unit price must be a whole number of cents/,
    ],
    [
      "shopper-open-cart",
      "a line's tax is left out",
      (host) => {
        const { openCart } = host.shopper;
        host.shopper.openCart = async (sessionId, base) => {
          const cart = await openCart(sessionId, base);
          return cart && { ...cart, items: cart.items.map((i) => ({ ...i, tax: 0 })) };
        };
      },
      /the lines and delivery owe seedOpenCart's `owes`/,
    ],
    [
      "shopper-open-cart",
      "the cart is still given once it became an order",
      (host) => {
        const first = new Map<string, Awaited<ReturnType<typeof host.shopper.openCart>>>();
        const { openCart } = host.shopper;
        host.shopper.openCart = async (sessionId, base) => {
          const cart = (await openCart(sessionId, base)) ?? first.get(sessionId) ?? null;
          if (cart) first.set(sessionId, cart);
          return cart;
        };
      },
      /the cart is an order: no open cart/,
    ],
    [
      "shopper-delivery",
      "the delivery is priced in another currency",
      (host) => {
        const { shippingMethod } = host.shopper;
        host.shopper.shippingMethod = async (id, currency) => {
          const charge = await shippingMethod(id, currency);
          return { ...charge, price: Math.round(charge.price * 1.08) };
        };
      },
      /purchase_data's Cart owes what the order owes/,
    ],
    [
      "shopper-delivery",
      "the default delivery is one shippingMethod does not know",
      (host) => {
        host.shopper.defaultShippingMethod = "express";
      },
      /defaultShippingMethod is a delivery shippingMethod knows/,
    ],
    [
      "shopper-checkout",
      "the shopper source reads the details from somewhere else",
      (host) => {
        host.shopper.loadCheckout = async () => null;
      },
      /what the Service Pay store reads/,
    ],
    [
      "drop-checkout",
      "dropCheckout forgets nothing",
      (host) => {
        const { transaction } = host.servicePay;
        host.servicePay.transaction = (fn) =>
          transaction((tx) => fn({ ...tx, dropCheckout: async () => {} }));
      },
      /loadCheckout once dropped/,
    ],
    [
      "drop-checkout",
      "dropping what is not kept throws",
      (host) => {
        const { transaction } = host.servicePay;
        host.servicePay.transaction = (fn) =>
          transaction((tx) =>
            fn({
              ...tx,
              dropCheckout: async (cartId) => {
                if (!(await tx.loadCheckout(cartId))) throw new Error("nothing kept to drop");
                await tx.dropCheckout(cartId);
              },
            }),
          );
      },
      /nothing kept to drop/,
    ],
    [
      "resave-checkout",
      "a re-save keeps the first keptAt",
      (host) => {
        const { transaction } = host.servicePay;
        host.servicePay.transaction = (fn) =>
          transaction((tx) =>
            fn({
              ...tx,
              saveCheckout: async (kept) => {
                const first = await tx.loadCheckout(kept.cartId);
                await tx.saveCheckout(kept);
                const saved = await tx.loadCheckout(kept.cartId);
                if (first && saved) saved.keptAt = first.keptAt;
              },
            }),
          );
      },
      /keptAt refreshed by the re-save/,
    ],
    [
      "resave-checkout",
      "a re-save without a valuation forgets the kept one",
      (host) => {
        const { transaction } = host.servicePay;
        host.servicePay.transaction = (fn) =>
          transaction((tx) =>
            fn({
              ...tx,
              saveCheckout: (kept) => tx.saveCheckout({ valuation: NOT_LOOKED_UP, ...kept }),
            }),
          );
      },
      /the kept valuation, the re-save omitting it/,
    ],
    [
      "trade-in-seen",
      "tradeInSeen gives the latest trade-in seen by anyone",
      (host) => {
        const { recordTradeInSeen } = host;
        let latest: string | null = null;
        host.recordTradeInSeen = async (sessionId, tradeInId) => {
          latest = tradeInId;
          await recordTradeInSeen?.(sessionId, tradeInId);
        };
        host.tradeIns.tradeInSeen = async (sessionId) =>
          sessionId.startsWith("unknown-") ? null : latest;
      },
      /only for that session/,
    ],
    [
      "trade-in-seen",
      "a sign-in's new session is not given what the guest's session saw",
      (host) => {
        host.tradeIns.carryTradeInSeen = async () => {};
      },
      /carried to the new session/,
    ],
    [
      "typed-unreachable",
      "unreachableSince reads lastError's words",
      (host) => {
        const rows: { lastError: string; at: Date }[] = [];
        const { finish } = host.tradeIns;
        host.tradeIns.finish = async (row, result, change) => {
          rows.push({ lastError: result.lastError, at: new Date() });
          await finish(row, result, change);
        };
        host.tradeIns.unreachableSince = async (since) =>
          rows.some((r) => r.lastError.startsWith("network:") && r.at >= since);
      },
      /reads like a network failure/,
    ],
    [
      "typed-unreachable",
      "finish does not keep `unreachable`",
      (host) => {
        const { finish } = host.tradeIns;
        host.tradeIns.finish = (row, result, change) =>
          finish(row, { ...result, unreachable: false }, change);
      },
      /the row says so/,
    ],
    [
      "typed-unreachable",
      "unreachableSince ignores `since`",
      (host) => {
        const { unreachableSince } = host.tradeIns;
        host.tradeIns.unreachableSince = () => unreachableSince(new Date(0));
      },
      /none finished after `since`/,
    ],
  ])("%s fails when %s", async (key, _mistake, breakIt, why) => {
    await expect(runBroken(key, breakIt)).rejects.toThrow(why);
  });
});
