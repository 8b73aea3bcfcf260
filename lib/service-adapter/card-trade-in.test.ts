import type { Session, TradeInItem } from "@service-integration/kit";
import {
  ServiceApiError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "@service-integration/kit";
import type { RegisterPurchaseBody } from "@service-integration/kit/server";
import {
  applyTradeInAfterCardPayment,
  cardCheckoutTradeInStep,
  NOT_APPLIED_MESSAGES,
  processRegistration,
  retryDelayMs,
  retryDueRegistrations,
  type TradeInClient,
} from "@service-integration/kit/server";
import { describe, expect, it, vi } from "vitest";
import { randomHex32 } from "@/lib/session/session-data";
import { addToCart } from "@/lib/shop/cart";
import { placeCardOrder } from "@/lib/shop/orders";
import { TEST_CARDS } from "@/lib/shop/test-card";
import { cardCheckoutInput } from "@/test-support/checkout";
import { setUpTestDb } from "@/test-support/test-db";
import { withHistory } from "@/test-support/test-shop";
import { orderWriter, serviceAdapter } from "./service";

const shop = setUpTestDb();

const NOW = new Date("2026-11-21T12:00:00Z");
const input = cardCheckoutInput(TEST_CARDS.success);

async function paidOrder() {
  const session = { sessionId: randomHex32(), salt: randomHex32() };
  await addToCart({
    sessionId: session.sessionId,
    currency: "EUR",
    productId: shop.products.buds.id,
    quantity: 2,
  });
  const placed = await placeCardOrder(orderWriter(shop.db), {
    sessionId: session.sessionId,
    customerId: null,
    input,
    shopBaseUrl: "http://shop.test",
  });
  if (!placed.ok) throw new Error(placed.error);
  return { shopper: session, orderId: placed.orderId };
}

const accepted: TradeInItem = {
  id: "ti_1",
  status: "accepted",
  valid_until: "2026-11-22T12:00:00Z",
} as TradeInItem;

function fakeClient(opts: {
  session?: Partial<Session> | ServiceApiError | ServiceNetworkError;
  item?: TradeInItem | ServiceApiError;
  register?: (body: RegisterPurchaseBody, n: number) => unknown;
}) {
  const sent: RegisterPurchaseBody[] = [];
  const client = {
    getSession: vi.fn(async (hash: string) => {
      if (opts.session instanceof ServiceApiError || opts.session instanceof ServiceNetworkError) {
        throw opts.session;
      }
      return { session_id: hash, ...opts.session } as Session;
    }),
    getTradeInItem: vi.fn(async () => {
      if (opts.item instanceof ServiceApiError) throw opts.item;
      if (!opts.item) throw apiError(404);
      return opts.item;
    }),
    registerPurchase: vi.fn(async (body: RegisterPurchaseBody) => {
      sent.push(body);
      return opts.register ? opts.register(body, sent.length) : { duplicate: false };
    }),
  } satisfies TradeInClient;
  return { client, sent };
}

function apiError(status: number, path = "/register-purchase") {
  return new ServiceApiError({ status, method: "POST", path, error: `e${status}` });
}

const deps = (client: TradeInClient, now = NOW) => ({
  store: serviceAdapter(shop.db).tradeIns,
  client,
  now: () => now,
});

describe("trade-in after a card payment (go-live scenario 2)", () => {
  it("registers an accepted, unexpired trade-in once, with the Base64 cart and the order total", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: { tradein_item: accepted } });
    const result = await applyTradeInAfterCardPayment(deps(client), o);
    expect(result).toEqual({ status: "registered" });
    expect(sent).toHaveLength(1);
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: o.orderId } });
    const cart = JSON.parse(Buffer.from(sent[0]?.cart ?? "", "base64").toString("utf8"));
    expect(cart.id).toBe(order.cartId);
    expect(cart.items[0].quantity).toBe(2);
    expect(sent[0]?.order_amount).toBe(order.total);
    expect(sent[0]?.order_id).toBe(order.number);
    expect(order.tradeInStatus).toBe("registered");
    const history = await shop.db.orderStatusChange.findMany({ where: { orderId: o.orderId } });
    expect(history.map((h) => h.note).join("\n")).toContain("Trade-in registered");
    // A second call for the same order sends nothing more.
    expect(await applyTradeInAfterCardPayment(deps(client), o)).toEqual({ status: "registered" });
    expect(sent).toHaveLength(1);
  });

  it("leaves the attempt to the request that wrote the row when the same order is submitted twice at once", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: { tradein_item: accepted } });
    const store = serviceAdapter(shop.db).tradeIns;
    // The other request wrote the row after this one looked for it (and is making the attempt).
    const row = {
      orderId: o.orderId,
      sessionHash: "hash",
      cart: "e30=",
      orderAmount: 1,
      customerId: null,
      status: "queued" as const,
      precheck: true,
      attempts: 0,
      unreachable: false,
      nextAttemptAt: NOW,
    };
    expect(await store.create(row)).toBe(true);
    const claim = vi.fn(store.claim);
    let looked = false;
    const lateLook = {
      ...store,
      claim,
      find: async (orderId: string) => {
        if (looked) return store.find(orderId);
        looked = true;
        return null;
      },
    };
    const result = await applyTradeInAfterCardPayment(
      { store: lateLook, client, now: () => NOW },
      o,
    );
    expect(result).toEqual({ status: "queued" });
    expect(claim).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
    // The other request's attempt ends (the row must not stay due for this file's job tests).
    await shop.db.tradeInRegistration.update({
      where: { orderId: o.orderId },
      data: { status: "registered" },
    });
  });

  it("leaves a plain purchase alone (go-live scenario 3): no registration, nothing to tell", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: {} });
    expect(await applyTradeInAfterCardPayment(deps(client), o)).toEqual({ status: "no_trade_in" });
    expect(sent).toHaveLength(0);
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: o.orderId } });
    expect(order.tradeInStatus).toBeNull();
  });

  it("explains an expired valuation the browser saw accepted, and sends nothing", async () => {
    const o = await paidOrder();
    await shop.db.sessionTradeIn.create({
      data: { sessionId: o.shopper.sessionId, tradeInId: "ti_old" },
    });
    const { client, sent } = fakeClient({
      session: {},
      item: apiError(410, "/core/tradeinitems/"),
    });
    const result = await applyTradeInAfterCardPayment(deps(client), o);
    expect(result).toEqual({ status: "not_applied", message: NOT_APPLIED_MESSAGES.expired });
    expect(sent).toHaveLength(0);
  });

  it("says not applied when the trade-in item in the session is past valid_until", async () => {
    const o = await paidOrder();
    const { client } = fakeClient({
      session: { tradein_item: { ...accepted, valid_until: "2026-11-21T11:59:59Z" } },
    });
    const result = await applyTradeInAfterCardPayment(deps(client), o);
    expect(result.status).toBe("not_applied");
    expect(result.message).toBe(NOT_APPLIED_MESSAGES.expired);
  });

  it.each([
    [404, "unknown"],
    [410, "expired"],
    [400, "rejected"],
  ] as const)("keeps the order and tells the shopper on %i", async (status, reason) => {
    const o = await paidOrder();
    const { client } = fakeClient({
      session: { tradein_item: accepted },
      register: () => {
        throw apiError(status);
      },
    });
    const result = await applyTradeInAfterCardPayment(deps(client), o);
    expect(result).toEqual({ status: "not_applied", message: NOT_APPLIED_MESSAGES[reason] });
    const order = await shop.db.order.findUniqueOrThrow({ where: { id: o.orderId } });
    expect(order.status).toBe("payment_completed");
    expect(order.tradeInMessage).toBe(NOT_APPLIED_MESSAGES[reason]);
  });

  it.each([429, 503])(
    "queues on %i and the job sends the same body again without re-checking",
    async (status) => {
      const o = await paidOrder();
      const { client, sent } = fakeClient({
        session: { tradein_item: accepted },
        register: (_body, n) => {
          if (n === 1) throw apiError(status);
          return { duplicate: false };
        },
      });
      expect(await applyTradeInAfterCardPayment(deps(client), o)).toEqual({ status: "queued" });
      const row = await shop.db.tradeInRegistration.findUniqueOrThrow({
        where: { orderId: o.orderId },
      });
      expect(row.precheck).toBe(false);
      expect(row.nextAttemptAt?.getTime()).toBe(NOW.getTime() + retryDelayMs(1));
      // Not due yet: nothing happens.
      const early = await retryDueRegistrations(deps(client));
      expect(early.registered).toBe(0);
      const later = new Date(NOW.getTime() + retryDelayMs(1));
      const run = await retryDueRegistrations(deps(client, later));
      expect(run.registered).toBeGreaterThanOrEqual(1);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toEqual(sent[0]);
      expect(client.getSession).toHaveBeenCalledTimes(1);
      const order = await shop.db.order.findUniqueOrThrow({ where: { id: o.orderId } });
      expect(order.tradeInStatus).toBe("registered");
    },
  );

  it("waits the service's Retry-After when it is longer than the backoff", async () => {
    const o = await paidOrder();
    const { client } = fakeClient({
      session: { tradein_item: accepted },
      register: () => {
        throw new ServiceApiError({
          status: 429,
          method: "POST",
          path: "/register-purchase",
          retryAfterMs: 30_000,
        });
      },
    });
    expect(await applyTradeInAfterCardPayment(deps(client), o)).toEqual({ status: "queued" });
    const row = await shop.db.tradeInRegistration.findUniqueOrThrow({
      where: { orderId: o.orderId },
    });
    expect(retryDelayMs(1)).toBeLessThan(30_000);
    expect(row.nextAttemptAt?.getTime()).toBe(NOW.getTime() + 30_000);
  });

  it("counts the Retry-After from the attempt's last answer, not from its start", async () => {
    // The client's own retries inside one attempt take time (each waits its Retry-After): the
    // row's next attempt must still wait the last answer's Retry-After (contract, Errors ›
    // Client guidance), or a scheduler's next call resends too soon (readiness: api.backoff).
    const o = await paidOrder();
    let clock = NOW.getTime();
    const { client } = fakeClient({
      session: { tradein_item: accepted },
      register: () => {
        clock += 3_000; // the client's retries of this attempt
        throw new ServiceApiError({
          status: 503,
          method: "POST",
          path: "/register-purchase",
          retryAfterMs: 1_000,
        });
      },
    });
    const moving = { ...deps(client), now: () => new Date(clock) };
    expect(await applyTradeInAfterCardPayment(moving, o)).toEqual({ status: "queued" });
    const row = await shop.db.tradeInRegistration.findUniqueOrThrow({
      where: { orderId: o.orderId },
    });
    expect(row.nextAttemptAt?.getTime()).toBe(clock + retryDelayMs(1));
  });

  it("re-checks the session on retry when the check itself failed transiently", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: apiError(503, "/core/sessions/") });
    expect(await applyTradeInAfterCardPayment(deps(client), o)).toEqual({ status: "queued" });
    const row = await shop.db.tradeInRegistration.findUniqueOrThrow({
      where: { orderId: o.orderId },
    });
    expect(row.precheck).toBe(true);
    // The service is back and the session has no trade-in: a plain purchase, nothing sent.
    const back = fakeClient({ session: {} });
    const result = await processRegistration(deps(back.client), o.orderId);
    expect(result).toEqual({ status: "no_trade_in" });
    expect(sent).toHaveLength(0);
    // The order stops saying "queued" (the confirmation page would show it for ever).
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: o.orderId } }),
    );
    expect(order.tradeInStatus).toBe("no_trade_in");
    expect(order.history.map((h) => h.note).join("\n")).toMatch(/No trade-in in the session/);
  });

  it("sends once when two runners process the same row at the same moment", async () => {
    const o = await paidOrder();
    const slow = fakeClient({
      session: { tradein_item: accepted },
      register: (_b, n) => {
        if (n === 1) throw apiError(503);
        return { duplicate: false };
      },
    });
    await applyTradeInAfterCardPayment(deps(slow.client), o);
    await shop.db.tradeInRegistration.update({
      where: { orderId: o.orderId },
      data: { nextAttemptAt: NOW },
    });
    const results = await Promise.all([
      processRegistration(deps(slow.client), o.orderId),
      processRegistration(deps(slow.client), o.orderId),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["queued", "registered"]);
    expect(slow.sent).toHaveLength(2);
  });
  it("the retry jobs of several instances split the due queue: each row is tried once", async () => {
    const failing = fakeClient({
      session: { tradein_item: accepted },
      register: () => {
        throw apiError(503);
      },
    });
    const orders = [];
    for (let i = 0; i < 6; i++) {
      const o = await paidOrder();
      await applyTradeInAfterCardPayment(deps(failing.client), o);
      orders.push(o.orderId);
    }
    await shop.db.tradeInRegistration.updateMany({
      where: { orderId: { in: orders } },
      data: { nextAttemptAt: NOW },
    });
    const working = fakeClient({ session: { tradein_item: accepted } });
    // Two runners at the same moment, as two instances' timers would be.
    const runs = await Promise.all([
      retryDueRegistrations(deps(working.client), { limit: 50 }),
      retryDueRegistrations(deps(working.client), { limit: 50 }),
    ]);
    expect(runs[0].due + runs[1].due).toBe(6);
    expect(runs[0].registered + runs[1].registered).toBe(6);
    const sentFor = working.sent.map((body) => body.order_id);
    expect(new Set(sentFor).size).toBe(sentFor.length);
    expect(sentFor).toHaveLength(6);
    const rows = await shop.db.tradeInRegistration.findMany({ where: { orderId: { in: orders } } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(Array(6).fill(["registered", 2]));
  });

  it("does not make the next shopper wait while the service was just found unreachable", async () => {
    const down = fakeClient({
      session: new ServiceNetworkError("GET", "/core/sessions/", {
        cause: { code: "ECONNREFUSED" },
      }),
    });
    const first = await paidOrder();
    expect(await applyTradeInAfterCardPayment(deps(down.client), first)).toEqual({
      status: "queued",
    });
    // The next card order within the memory: no call at all, queued for the job at once.
    const next = await paidOrder();
    const untouched = fakeClient({ session: { tradein_item: accepted } });
    const soon = new Date(NOW.getTime() + 10_000);
    expect(await applyTradeInAfterCardPayment(deps(untouched.client, soon), next)).toEqual({
      status: "queued",
    });
    expect(untouched.client.getSession).not.toHaveBeenCalled();
    const row = await shop.db.tradeInRegistration.findUniqueOrThrow({
      where: { orderId: next.orderId },
    });
    expect(row).toMatchObject({ status: "queued", attempts: 0 });
    // The job makes the attempt once the service answers again.
    const later = new Date(NOW.getTime() + 60_000);
    expect(await processRegistration(deps(untouched.client, later), next.orderId)).toEqual({
      status: "registered",
    });
    expect(untouched.sent).toHaveLength(1);
  });

  it("counts no answer in time as unreachable and a 503 answer as not, by the row's own field", async () => {
    const store = serviceAdapter(shop.db).tradeIns;
    // The rows earlier tests left unreachable would skip this test's calls: forgotten here.
    await shop.db.tradeInRegistration.updateMany({ data: { unreachable: false } });
    const since = new Date(Date.now() - 60_000);
    expect(await store.unreachableSince(since), "nothing yet").toBe(false);
    const failing = (error: Error) =>
      fakeClient({
        session: { tradein_item: accepted },
        register: () => {
          throw error;
        },
      });
    const busy = await paidOrder();
    await applyTradeInAfterCardPayment(deps(failing(apiError(503)).client), busy);
    expect(await store.find(busy.orderId)).toMatchObject({ status: "queued", unreachable: false });
    expect(await store.unreachableSince(since), "a 503 is an answer").toBe(false);

    const slow = await paidOrder();
    const timedOut = new ServiceTimeoutError("POST", "/register-purchase", 10_000);
    await applyTradeInAfterCardPayment(deps(failing(timedOut).client), slow);
    expect(await store.find(slow.orderId)).toMatchObject({ status: "queued", unreachable: true });
    expect(await store.unreachableSince(since), "no answer in time").toBe(true);
    // Once the retry registers it, the row no longer says the service is unreachable.
    const later = new Date(NOW.getTime() + 60_000);
    const working = fakeClient({ session: { tradein_item: accepted } });
    await processRegistration(deps(working.client, later), slow.orderId);
    expect(await store.find(slow.orderId)).toMatchObject({
      status: "registered",
      unreachable: false,
    });
    expect(await store.unreachableSince(since)).toBe(false);
  });
});

describe("the card checkout's trade-in step within the shopper's request", () => {
  // The shopper waits at most 8 s for register-purchase; the rest is handed to the host's
  // waitUntil (Next's after()), so a serverless host does not freeze it midway. The wait is a
  // sleep the test ends by hand. An hour past the real clock: the unreachable memory of the
  // tests above (kept by the rows' real updatedAt) is long over.
  const later = new Date(Date.now() + 3_600_000);
  const unexpired = {
    ...accepted,
    valid_until: new Date(later.getTime() + 86_400_000).toISOString(),
  } as TradeInItem;

  function shopperWait() {
    let end = () => {};
    const sleep = (ms: number) => {
      expect(ms).toBe(8_000);
      return new Promise<void>((resolve) => {
        end = resolve;
      });
    };
    const handed: Promise<unknown>[] = [];
    return {
      sleep,
      end: () => end(),
      handed,
      waitUntil: (work: Promise<unknown>) => {
        handed.push(work);
      },
    };
  }

  const rowOf = (orderId: string) =>
    shop.db.tradeInRegistration.findUniqueOrThrow({ where: { orderId } });
  const orderOf = (orderId: string) => shop.db.order.findUniqueOrThrow({ where: { id: orderId } });

  it("a registration within the wait is the shopper's: nothing is handed over", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: { tradein_item: unexpired } });
    const wait = shopperWait();
    const result = await cardCheckoutTradeInStep(deps(client, later), o, wait);
    expect(result).toEqual({ status: "registered" });
    expect(wait.handed).toEqual([]);
    expect(sent).toHaveLength(1);
    expect((await orderOf(o.orderId)).tradeInStatus).toBe("registered");
  });

  it("a slower registration is handed over when the wait ends, and records its outcome when it finishes", async () => {
    const o = await paidOrder();
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { client, sent } = fakeClient({
      session: { tradein_item: unexpired },
      register: async () => {
        await answered;
        return { duplicate: false };
      },
    });
    const wait = shopperWait();
    const step = cardCheckoutTradeInStep(deps(client, later), o, wait);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    wait.end();
    // The shopper goes on to the confirmation; the attempt keeps its claim.
    expect(await step).toBeNull();
    expect(wait.handed).toHaveLength(1);
    expect(await rowOf(o.orderId)).toMatchObject({ status: "queued", attempts: 1 });
    answer();
    await wait.handed[0];
    expect(await rowOf(o.orderId)).toMatchObject({ status: "registered", attempts: 1 });
    expect((await orderOf(o.orderId)).tradeInStatus).toBe("registered");
    expect(sent).toHaveLength(1);
  });

  it("a failure is logged, never thrown: the paid order stands and its row stays for the retry job", async () => {
    const o = await paidOrder();
    const { client, sent } = fakeClient({ session: { tradein_item: unexpired } });
    const store = serviceAdapter(shop.db).tradeIns;
    // The database goes away between writing the row and claiming it for the first attempt.
    const failing = {
      ...store,
      claim: async () => {
        throw new Error("database unavailable");
      },
    };
    const logged: unknown[] = [];
    const wait = shopperWait();
    const result = await cardCheckoutTradeInStep({ store: failing, client, now: () => later }, o, {
      ...wait,
      log: (_message, error) => logged.push(error),
    });
    expect(result).toBeNull();
    expect(logged).toEqual([new Error("database unavailable")]);
    expect(wait.handed).toEqual([]);
    expect((await orderOf(o.orderId)).status).toBe("payment_completed");
    expect(await rowOf(o.orderId)).toMatchObject({ status: "queued", attempts: 0 });
    // The retry job's attempt for the row registers it.
    expect(await processRegistration(deps(client, later), o.orderId)).toEqual({
      status: "registered",
    });
    expect(sent).toHaveLength(1);
  });
});
