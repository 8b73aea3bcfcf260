import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { register } from "@/instrumentation";
import { getNotificationInbox, serviceAdapter } from "@/lib/service-adapter/service";
import {
  seedPendingServicePayOrder,
  setUpTestShop,
  webhookRequest,
} from "@/test-support/test-shop";
import { GET as sweep } from "../../jobs/notification-sweep/route";
import { POST } from "./route";

// A host without a resident process (serverless): nothing runs on a timer, the function may be
// frozen as soon as its response is sent, and a platform scheduler calls the job routes. The
// order webhook (contract: Events › Webhook, Merchant endpoints rule 2) answers 200 once a
// delivery is stored and hands its apply to Next's after(), which such a host waits for before
// freezing; here after() records what it was handed, and only those promises are awaited: no
// polling, no timer. What failed to apply is applied by one call of the sweep route.

const handed = vi.hoisted(() => [] as Promise<unknown>[]);
vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: (work: Promise<unknown>) => {
    handed.push(work);
  },
}));

const BURST = 50;
const shop = setUpTestShop();
/** The burst's pending Service Pay orders, one per delivery (seeded once: setup, not the test). */
const orders: Awaited<ReturnType<typeof seedPendingServicePayOrder>>[] = [];
beforeAll(async () => {
  // Five at a time: fifty transactions at once queue for the pool's connections past Prisma's
  // wait for a transaction to start (seen on PostgreSQL on a loaded machine).
  for (let i = 0; i < BURST; i += 5)
    orders.push(
      ...(await Promise.all(Array.from({ length: 5 }, () => seedPendingServicePayOrder(shop)))),
    );
});
const JOBS_SECRET = "jobs-secret-for-the-test-at-least-32-chars";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The service's payment_completed delivery for a pending Service Pay order of a one-phone cart. */
function paid(cartId: string) {
  return {
    id: `wh_nt_${cartId}`,
    event: "order.payment_completed",
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status: "payment_completed",
    amount: 12300 + 1499, // items, tax and the express delivery: the Cart's total
    currency: "EUR",
    trade_in_discount: 1500,
  };
}

const serviceChanges = (orderId: string) =>
  shop.db.orderStatusChange.count({ where: { orderId, source: "service" } });
const outcome = async (cartId: string) =>
  (await shop.db.serviceNotification.findFirstOrThrow({ where: { cartId } })).outcome;

/** Each order's status, trade-in discount, status changes by the service and its notification's
 *  outcome, read in three queries. */
async function burstState(orderIds: string[]) {
  const orders = await shop.db.order.findMany({ where: { id: { in: orderIds } } });
  const changes = await shop.db.orderStatusChange.groupBy({
    by: ["orderId"],
    where: { orderId: { in: orderIds }, source: "service" },
    _count: true,
  });
  const notes = await shop.db.serviceNotification.findMany({
    where: { cartId: { in: orders.map((o) => o.cartId) } },
  });
  return orderIds.map((id) => {
    const order = orders.find((o) => o.id === id);
    return {
      status: order?.status,
      discount: order?.tradeInDiscount,
      changes: changes.find((c) => c.orderId === id)?._count ?? 0,
      outcome: notes.find((n) => n.cartId === order?.cartId)?.outcome,
    };
  });
}

/** Takes what after() was handed so far and waits for it, as the host does before freezing. */
async function hostFinishes(): Promise<number> {
  const work = handed.splice(0);
  await Promise.all(work);
  return work.length;
}

describe("the webhook on a host with no timers", () => {
  it("starts no timer when the shop's job intervals are 0", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NOTIFICATION_SWEEP_INTERVAL_MS", "0");
    vi.stubEnv("TRADE_IN_RETRY_INTERVAL_MS", "0");
    const setInterval = vi.spyOn(globalThis, "setInterval");
    vi.spyOn(console, "log").mockImplementation(() => {});
    await register();
    expect(setInterval).not.toHaveBeenCalled();
  });

  it(`applies a burst of ${BURST} deliveries exactly once each, through what after() was handed`, async () => {
    const setInterval = vi.spyOn(globalThis, "setInterval");
    await hostFinishes(); // nothing of earlier tests is left to wait for
    const commits = vi.spyOn(serviceAdapter(shop.db).servicePay, "storeBatch");
    commits.mockClear(); // the adapter's store is shared with the other tests
    const answers = await Promise.all(orders.map((o) => POST(webhookRequest(paid(o.cartId)))));
    expect(answers.map((a) => a.status)).toEqual(Array(BURST).fill(200));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(bodies).toEqual(Array(BURST).fill({ received: true, outcome: "stored" }));
    // Each commit's answers handed their applies over once (the last of them); the host waits
    // for those and nothing else.
    expect(commits).toHaveBeenCalled();
    expect(await hostFinishes()).toBe(commits.mock.calls.length);
    const ids = orders.map((o) => o.order.id);
    expect(await burstState(ids)).toEqual(
      ids.map(() => ({
        status: "payment_completed",
        discount: 1500,
        changes: 1,
        outcome: "applied",
      })),
    );
    // The service retries a few (a lost 200): answered, nothing more applied.
    const repeats = await Promise.all(
      orders.slice(0, 5).map((o) => POST(webhookRequest(paid(o.cartId)))),
    );
    expect(await Promise.all(repeats.map((r) => r.json()))).toEqual(
      Array(5).fill({ received: true, outcome: "duplicate" }),
    );
    await hostFinishes();
    expect((await burstState(ids)).map((o) => o.changes)).toEqual(Array(BURST).fill(1));
    expect(setInterval).not.toHaveBeenCalled();
  });

  it("a delivery whose apply failed is applied by one call of the sweep route", async () => {
    const { cartId, order } = await seedPendingServicePayOrder(shop);
    await hostFinishes();
    await getNotificationInbox().idle(); // no other apply may take the refusal below
    // The database refuses the apply's transaction once (an outage after the row was stored).
    const store = serviceAdapter(shop.db).servicePay;
    vi.spyOn(store, "transaction").mockRejectedValueOnce(new Error("database unavailable"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const answer = await POST(webhookRequest(paid(cartId)));
    expect([answer.status, await answer.json()]).toEqual([
      200,
      { received: true, outcome: "stored" },
    ]);
    expect(await hostFinishes()).toBe(1);
    expect(await outcome(cartId)).toBe("stored");
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      "pending",
    );
    // The service recovered; the platform scheduler's next call of the sweep applies it.
    vi.stubEnv("JOBS_SECRET", JOBS_SECRET);
    const swept = await sweep(
      new Request("http://shop.test/api/service/jobs/notification-sweep", {
        headers: { authorization: `Bearer ${JOBS_SECRET}` },
      }),
    );
    expect(swept.status).toBe(200);
    expect((await swept.json()).result).toEqual({ applied: 1, pruned: 0 });
    expect(await outcome(cartId)).toBe("applied");
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      "payment_completed",
    );
    expect(await serviceChanges(order.id)).toBe(1);
  });
});
