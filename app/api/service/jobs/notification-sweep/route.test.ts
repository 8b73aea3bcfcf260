import { parseOrderNotification } from "@service-integration/kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serviceAdapter } from "@/lib/service-adapter/service";
import { seedPendingServicePayOrder, setUpTestShop } from "@/test-support/test-shop";
import { GET, POST } from "./route";

// The sweep of stored, unapplied order notifications run by a platform scheduler's request
// (docs/decisions/scheduled-jobs.md): refused while JOBS_SECRET is unset, nothing applied on a
// wrong bearer, each stored row applied once however many calls come at once.

const shop = setUpTestShop();
const SECRET = "jobs-secret-for-the-test-at-least-32-chars";
const URL = "http://shop.test/api/service/jobs/notification-sweep";
const call = (handler: typeof GET, authorization?: string) =>
  handler(new Request(URL, authorization ? { headers: { authorization } } : {}));

/** A paid notification stored by the webhook's answer and never applied (the process stopped). */
async function storedNotApplied() {
  const { cartId, order } = await seedPendingServicePayOrder(shop);
  const body = JSON.stringify({
    id: `wh_sweep_${cartId}`,
    event: "order.payment_completed",
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status: "payment_completed",
    amount: 12300 + 1499,
    currency: "EUR",
    trade_in_discount: 1500,
  });
  const n = parseOrderNotification(new TextEncoder().encode(body));
  const [id] = await serviceAdapter(shop.db).servicePay.storeBatch([n]);
  if (!id) throw new Error("not stored");
  return { order, dedupeKey: n.dedupeKey };
}

const outcome = async (dedupeKey: string) =>
  (await shop.db.serviceNotification.findUniqueOrThrow({ where: { dedupeKey } })).outcome;

afterEach(() => vi.unstubAllEnvs());

describe("GET/POST /api/service/jobs/notification-sweep", () => {
  it("403 while JOBS_SECRET is unset, 401 on a wrong bearer: nothing applied", async () => {
    const { dedupeKey } = await storedNotApplied();
    vi.stubEnv("JOBS_SECRET", "");
    expect((await call(GET, `Bearer ${SECRET}`)).status).toBe(403);
    vi.stubEnv("JOBS_SECRET", SECRET);
    expect((await call(GET)).status).toBe(401);
    expect((await call(POST, `Bearer ${SECRET.slice(0, -1)}x`)).status).toBe(401);
    expect(await outcome(dedupeKey)).toBe("stored");
  });

  it("applies what was stored and never applied, once, however many calls come at once", async () => {
    const { order, dedupeKey } = await storedNotApplied();
    vi.stubEnv("JOBS_SECRET", SECRET);
    // Every row left "stored" (the test above leaves one too) is applied, each by one call.
    const waiting = await shop.db.serviceNotification.count({ where: { outcome: "stored" } });
    expect(waiting).toBeGreaterThanOrEqual(1);
    const answers = await Promise.all([GET, POST, GET].map((h) => call(h, `Bearer ${SECRET}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const applied = await Promise.all(answers.map(async (a) => (await a.json()).result.applied));
    expect(
      applied.reduce((sum: number, n: number) => sum + n, 0),
      `applied: ${applied}`,
    ).toBe(waiting);
    expect(await outcome(dedupeKey)).toBe("applied");
    const after = await shop.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after.status).toBe("payment_completed");
    const history = await shop.db.orderStatusChange.count({
      where: { orderId: order.id, source: "service" },
    });
    expect(history).toBe(1);
    expect(await shop.db.serviceNotification.count({ where: { outcome: "stored" } })).toBe(0);
    // Nothing left: the next call applies nothing.
    expect((await (await call(GET, `Bearer ${SECRET}`)).json()).result.applied).toBe(0);
  });
});
