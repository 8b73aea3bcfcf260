// Conformance checks of the register-purchase rows and the retry job (TradeInRegistrationStore).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import {
  applyTradeInAfterCardPayment,
  type RetryRunSummary,
  retryDueRegistrations,
  type TradeInClient,
  type TradeInDeps,
} from "../card-trade-in.js";
import { cartOfLines } from "../cart.js";
import { ServiceApiError, ServiceNetworkError } from "../errors.js";
import { encodeCart } from "../register-purchase.js";
import { sessionSchema } from "../resources.js";
import type { ShopOrder, TradeInRegistrationStore } from "../shop-ports.js";
import { atOnce, count, pendingOrder } from "./conformance-helpers.js";
import {
  CONCURRENT_COPIES,
  type ConformanceHost,
  LATER,
  NOW,
  type SeededCart,
} from "./conformance-host.js";

// ---------------------------------------------------------------------------------------------
// register-purchase rows and the retry job

/** A service that has the shopper's trade-in accepted and counts register-purchase calls per
 *  order number; `failFirst` answers each order's first call 503 (queued for the retry job). */
export function tradeInService(options: { failFirst?: boolean } = {}) {
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

export function tradeInDeps(host: ConformanceHost, client: TradeInClient, now = NOW): TradeInDeps {
  return { store: host.tradeIns, client, now: () => now };
}

/** What a new registration row starts with (shop-ports.ts, TradeInRegistrationStore.create). */
export const NEW_REGISTRATION = { precheck: true, attempts: 0, unreachable: false } as const;

export const shopper = (cart: SeededCart) => ({
  sessionId: cart.sessionId,
  salt: `salt-${randomUUID()}`,
});

export async function oneRegistrationPerOrder(host: ConformanceHost) {
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

export async function oneClaimPerAttempt(host: ConformanceHost) {
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

export async function leaseBeforeClaim(host: ConformanceHost) {
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

export async function retryRunnersClaimOnce(host: ConformanceHost) {
  // Every runner asks for every due row at once (limit above DUE), so all RUNNERS contend for
  // the same DUE rows: a lease that is not exclusive hands a row to two runners (the handed-out
  // sum exceeds DUE) or retries it twice. Four rows and four runners are still that race, and
  // still let a runner that skips the rows another holds take the rest (FOR UPDATE SKIP LOCKED).
  // More rows add no contention, only orders to make (each goes the whole pending-order path).
  const DUE = 4;
  const RUNNERS = 4;
  // Each due row as the card step leaves one whose first attempt met a 503 (its session
  // check passed, one attempt made, queued until its next attempt; card-trade-in.ts), written
  // through the store: the card step itself is proven by one-registration-per-order and
  // lease-before-claim, and its calls would cost this check a quarter of its time. The orders
  // are the rest of its cost (each goes the whole pending-order path), made one after the
  // other (at once, they wait on one another's writes: SQLite has one writer at a time).
  const orders: ShopOrder[] = [];
  for (let i = 0; i < DUE; i++) {
    const { order } = await pendingOrder(host);
    // The order with its lines, as the card step reads it for the row's Cart.
    const lines = await host.tradeIns.order(order.id);
    if (!lines) throw new Error(`TradeInRegistrationStore.order gives no order ${order.id}`);
    const queued = await host.tradeIns.create({
      orderId: order.id,
      sessionHash: "hash",
      cart: encodeCart(cartOfLines({ ...lines, id: lines.cartId })),
      orderAmount: order.total,
      customerId: null,
      status: "queued",
      precheck: false,
      attempts: 1,
      unreachable: false,
      nextAttemptAt: NOW,
    });
    expect(queued, "the due row is created").toBe(true);
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

export async function tradeInSeen(host: ConformanceHost) {
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
  // A sign-in giving a new session id: what the guest's session saw is the new session's too.
  const [signedIn, other] = [await host.issueSession(), await host.issueSession()];
  await host.tradeIns.carryTradeInSeen(a.identity.sessionId, signedIn.identity.sessionId);
  expect(await seen(signedIn.identity.sessionId), "carried to the new session").toBe("tradein_a2");
  expect(await seen(b.identity.sessionId), "the other session's untouched").toBe("tradein_b1");
  await host.tradeIns.carryTradeInSeen(`unknown-${randomUUID()}`, other.identity.sessionId);
  expect(
    await seen(other.identity.sessionId),
    "nothing carried from a session that saw none",
  ).toBeNull();
}

export async function typedUnreachable(host: ConformanceHost) {
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
