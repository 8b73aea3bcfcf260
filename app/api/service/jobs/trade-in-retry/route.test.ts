import { buildCart } from "@service-integration/kit";
import type { RegisterPurchaseBody, TradeInClient } from "@service-integration/kit/server";
import { replaceProcessSingleton } from "@service-integration/kit/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { orderWriter } from "@/lib/service-adapter/service";
import { randomHex32 } from "@/lib/session/session-data";
import { addToCart } from "@/lib/shop/cart";
import { placeCardOrder } from "@/lib/shop/orders";
import { TEST_CARDS } from "@/lib/shop/test-card";
import { cardCheckoutInput } from "@/test-support/checkout";
import { setUpTestDb } from "@/test-support/test-db";
import { GET, POST } from "./route";

// The retry job run by a platform scheduler's request (docs/decisions/scheduled-jobs.md):
// Authorization: Bearer $JOBS_SECRET, refused while the secret is unset, nothing run on a
// wrong one.

const shop = setUpTestDb();
const SECRET = "jobs-secret-for-the-test-at-least-32-chars";
const URL = "http://shop.test/api/service/jobs/trade-in-retry";

/** The one service client of the process (service.ts), answering register-purchase with 200. */
function serviceAccepting() {
  const sent: RegisterPurchaseBody[] = [];
  const client: TradeInClient = {
    getSession: vi.fn(async () => {
      throw new Error("a queued send does not check the session again");
    }),
    getTradeInItem: vi.fn(async () => {
      throw new Error("not called");
    }),
    registerPurchase: vi.fn(async (body: RegisterPurchaseBody) => {
      sent.push(body);
      return { duplicate: false };
    }),
  };
  replaceProcessSingleton("service-client", client);
  return sent;
}

/** A paid card order whose register-purchase is queued and due (its first send failed). */
async function queuedRegistration() {
  const sessionId = randomHex32();
  await addToCart({ sessionId, currency: "EUR", productId: shop.products.buds.id, quantity: 1 });
  const placed = await placeCardOrder(orderWriter(shop.db), {
    sessionId,
    customerId: null,
    input: cardCheckoutInput(TEST_CARDS.success),
    shopBaseUrl: "http://shop.test",
  });
  if (!placed.ok) throw new Error(placed.error);
  const cart = buildCart({
    id: "cart-1",
    currency: "EUR",
    items: [
      {
        id: "p",
        name: "P",
        description: "",
        url: "http://shop.test/p",
        quantity: 1,
        price: 1000,
        tax: 210,
      },
    ],
  });
  return shop.db.tradeInRegistration.create({
    data: {
      orderId: placed.orderId,
      sessionHash: "a".repeat(64),
      cart: Buffer.from(JSON.stringify(cart)).toString("base64"),
      orderAmount: cart.total,
      status: "queued",
      precheck: false,
      attempts: 1,
      nextAttemptAt: new Date(Date.now() - 60_000),
    },
  });
}

const call = (handler: typeof GET, authorization?: string) =>
  handler(new Request(URL, { headers: authorization ? { authorization } : {} }));

afterEach(() => vi.unstubAllEnvs());

describe("GET/POST /api/service/jobs/trade-in-retry", () => {
  it("runs the retry job once for the scheduler's bearer secret, by GET (Vercel Cron) or POST", async () => {
    vi.stubEnv("JOBS_SECRET", SECRET);
    const sent = serviceAccepting();
    const row = await queuedRegistration();
    const res = await call(GET, `Bearer ${SECRET}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toMatchObject({
      job: "trade-in-retry",
      result: { due: 1, registered: 1 },
    });
    expect(sent).toHaveLength(1);
    const after = await shop.db.tradeInRegistration.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.status).toBe("registered");
    // Nothing due any more: the next call runs and finds nothing.
    const again = await call(POST, `Bearer ${SECRET}`);
    expect(again.status).toBe(200);
    expect((await again.json()).result.due).toBe(0);
  });

  it("refuses every call while JOBS_SECRET is unset or too short, running nothing", async () => {
    const sent = serviceAccepting();
    const row = await queuedRegistration();
    for (const secret of [undefined, "", "short-secret"]) {
      vi.stubEnv("JOBS_SECRET", secret);
      // Even a caller that guesses the (short or empty) value gets nothing run.
      const res = await call(GET, `Bearer ${secret ?? ""}`);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
    }
    expect(sent).toHaveLength(0);
    const after = await shop.db.tradeInRegistration.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "queued", attempts: 1 });
  });

  it("answers 401 to a missing or wrong bearer, running nothing", async () => {
    vi.stubEnv("JOBS_SECRET", SECRET);
    const sent = serviceAccepting();
    const row = await queuedRegistration();
    for (const authorization of [
      undefined,
      SECRET,
      `Basic ${SECRET}`,
      `Bearer ${SECRET.slice(0, -1)}`,
      `Bearer ${SECRET}x`,
      `Bearer  ${SECRET}`,
    ]) {
      const res = await call(POST, authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
    }
    expect(sent).toHaveLength(0);
    const after = await shop.db.tradeInRegistration.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "queued", attempts: 1 });
  });
});
