import { afterEach, describe, expect, it, vi } from "vitest";
import { throttledLogin } from "@/lib/auth/login-throttle";
import { endSession } from "@/lib/session/revocation";
import { ensureIdentity, type ShopSessionData } from "@/lib/session/session-data";
import { addToCart } from "@/lib/shop/cart";
import { tryPromotionCode } from "@/lib/shop/promotion-attempts";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  sessionCookie,
  setUpTestShop,
} from "@/test-support/test-shop";
import { POST as checkout } from "./checkout/route";
import { POST as pendingOrder } from "./pending-order/route";
import { POST as tradeInSeen } from "./trade-in-seen/route";

// Nothing an anonymous request does stores more than a bounded amount (docs/security.md, Bounded
// storage): 1,000 cookieless requests to each way in its table, and the rows counted. A
// cookieless request reaches every route with a brand-new session (proxy.ts gives it one), so
// each request below carries a new session of its own, its cookie sealed as the proxy seals it.
// The caps are small here, so that the requests pass them many times over.

// The smallest caps the shop's configuration takes (lib/config.ts).
const CARTS = 100;
const THROTTLE_ROWS = 100;
const shop = setUpTestShop({
  ANONYMOUS_CARTS_MAX: String(CARTS),
  LOGIN_THROTTLE_MAX_ROWS: String(THROTTLE_ROWS),
});
// 1,000 per way, ten times each cap: a row kept per request
// would show as a count far past its bound, and every trim runs many times. Each request costs
// the same at any count, so more of them would show nothing more (10,000 took 49 CPU-s on
// SQLite, a quarter of the unit step's, and 310 s of wall on one loaded core on PostgreSQL; 2,000
// took up to 36 s of a 55 s limit in a gate's PostgreSQL step); the HTTP probe,
// `npm run probe:anonymous`, sends 10,000 to a running shop (docs/security.md, Bounded storage).
const REQUESTS = 1_000;
// Each test's limit is three times its wall time measured on one core shared with a `vitest run
// lib` (docs/security.md, Bounded storage: the figures and how to measure them again).

/** Ten at a time, as many as the database pool's connections: a hundred transactions at once
 *  queued past Prisma's wait for a transaction to start on PostgreSQL on a loaded machine. */
async function inBatches(work: (n: number) => Promise<unknown>, requests = REQUESTS) {
  for (let batch = 0; batch < requests / 10; batch++) {
    await Promise.all(Array.from({ length: 10 }, (_, i) => work(batch * 10 + i)));
  }
}

/** A request with a new session, as the proxy hands a cookieless one on. */
async function cookieless(path: string, body: unknown): Promise<Request> {
  return jsonRequest(
    `http://shop.test/api/service/${path}`,
    body,
    await sessionCookie(newSession()),
  );
}

/** A new client address each time: with TRUSTED_PROXY_HOPS=0 (the default) a client reaching
 *  `next start` directly writes its own X-Forwarded-For (docs/decisions/client-address.md). */
const newAddress = (n: number) => `198.18.${n >> 8}.${n & 255}`;

/** Collects the answers that were not `expected`, so one assertion shows them all. */
function unexpected() {
  const seen: string[] = [];
  return {
    note: (what: string, status: number, expected: number) => {
      if (status !== expected && seen.length < 10) seen.push(`${what}: ${status}`);
    },
    seen,
  };
}

/** A guest's cart of one phone whose Service Pay payment started (POST /api/service/checkout). */
async function guestPaying() {
  const session = newSession();
  await addToCart({
    sessionId: session.sessionId,
    currency: "EUR",
    productId: shop.products.phone.id,
    quantity: 1,
  });
  const cookie = await sessionCookie(session);
  const res = await checkout(
    jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie),
  );
  return { session, cookie, started: res.status };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe(`${REQUESTS} cookieless requests to each way an anonymous request can write`, () => {
  it("trade-in-seen keeps at most the cap of seen trade-ins", async () => {
    const answers = unexpected();
    await inBatches(async (n) => {
      const res = await tradeInSeen(await cookieless("trade-in-seen", { tradein_id: `t${n}` }));
      answers.note(`seen ${n}`, res.status, 200);
    });
    expect(answers.seen).toEqual([]);
    // A seen trade-in is kept per session, up to the cap (the oldest seen dropped past it).
    expect(await shop.db.sessionTradeIn.count()).toBeLessThanOrEqual(CARTS);
  }, 50_000);

  it("pending-order stores nothing for a session without a cart", async () => {
    const answers = unexpected();
    await inBatches(async (n) => {
      const res = await pendingOrder(await cookieless("pending-order", CHECKOUT));
      answers.note(`pending ${n}`, res.status, 409);
    });
    expect(answers.seen).toEqual([]);
    expect(await shop.db.order.count()).toBe(0);
    expect(await shop.db.serviceCheckout.count()).toBe(0);
  }, 50_000);

  it("the service checkout stores nothing for a session without a cart, and asks the service nothing for it", async () => {
    const fetched = vi.spyOn(globalThis, "fetch");
    const answers = unexpected();
    await inBatches(async (n) => {
      const res = await checkout(await cookieless("checkout", CHECKOUT));
      answers.note(`checkout ${n}`, res.status, 409);
    });
    expect(answers.seen).toEqual([]);
    expect(await shop.db.serviceCheckout.count()).toBe(0);
    // A flood of them spends none of the merchant's calls to the service (its rate limit).
    expect(fetched).not.toHaveBeenCalled();
  }, 30_000);

  it("add-to-carts keep at most ANONYMOUS_CARTS_MAX open anonymous carts; a signed-in shopper's cart and a cart being paid stay, a payment given up two hours ago does not", async () => {
    const customer = await shop.db.customer.create({
      data: { email: "kept@example.com", passwordHash: "x", given_name: "K", family_name: "K" },
    });
    const signedIn = newSession(customer.id);
    await addToCart({
      sessionId: signedIn.sessionId,
      currency: "EUR",
      customerId: customer.id,
      productId: shop.products.phone.id,
      quantity: 1,
    });
    // A guest's cart whose Service Pay payment started: its details are kept.
    const { session: paying, cookie: payingCookie, started } = await guestPaying();
    expect(started).toBe(200);
    // A guest's payment started two hours ago and never finished: it protects nothing, or
    // add-to-cart and checkout, repeated, would keep carts without end.
    const { session: gaveUp } = await guestPaying();
    const longAgo = { updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) };
    await shop.db.serviceCheckout.updateMany({
      where: { sessionId: gaveUp.sessionId },
      data: longAgo,
    });
    await shop.db.cart.updateMany({ where: { sessionId: gaveUp.sessionId }, data: longAgo });
    // Each seen trade-in of a guest with a cart is kept, then goes with the cart.
    await tradeInSeen(
      jsonRequest(
        "http://shop.test/api/service/trade-in-seen",
        { tradein_id: "t-paying" },
        payingCookie,
      ),
    );

    let refused = 0;
    await inBatches(async () => {
      const result = await addToCart({
        sessionId: newSession().sessionId,
        currency: "EUR",
        productId: shop.products.cable.id,
        quantity: 1,
      });
      if (!result.ok) refused += 1;
    });
    expect(refused).toBe(0);
    // The bound: the cap plus the adds in flight at once (10 here). On PostgreSQL (read
    // committed) adds running together each count the carts before the others commit, so they
    // can overshoot by their number until the next add trims to nine tenths; SQLite writes one at
    // a time. Still bounded by the cap and the concurrency, never by the requests sent.
    const inFlight = 10;
    const anonymous = await shop.db.cart.count({ where: { customerId: null } });
    expect(anonymous).toBeLessThanOrEqual(CARTS + inFlight);
    expect(await shop.db.cartItem.count()).toBeLessThanOrEqual(CARTS + inFlight + 1);
    expect(await shop.db.cart.count({ where: { sessionId: signedIn.sessionId } })).toBe(1);
    expect(await shop.db.cart.count({ where: { sessionId: paying.sessionId } })).toBe(1);
    expect(await shop.db.cart.count({ where: { sessionId: gaveUp.sessionId } })).toBe(0);
    expect(await shop.db.serviceCheckout.count()).toBe(1);
    expect(await shop.db.sessionTradeIn.count()).toBeLessThanOrEqual(CARTS + 1);
  }, 55_000);

  it("promotion codes, each from a new session and a new address, keep the throttle's rows within its cap", async () => {
    await shop.db.loginThrottle.deleteMany();
    let applied = 0;
    await inBatches(async (n) => {
      const result = await tryPromotionCode(newSession().sessionId, newAddress(n), `GUESS-${n}`);
      if (result.ok) applied += 1;
    });
    expect(applied).toBe(0);
    // The cap's rows of keys, and the window's count row (lib/auth/login-throttle.ts).
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(THROTTLE_ROWS + 1);
  }, 25_000);

  it("failed logins, each a new email from a new address, keep the throttle's rows within its cap", async () => {
    await shop.db.loginThrottle.deleteMany();
    let signedIn = 0;
    await inBatches(async (n) => {
      const result = await throttledLogin(
        "shopper",
        `flood${n}@example.com`,
        newAddress(n),
        async () => null,
      );
      if (result.ok) signedIn += 1;
    });
    expect(signedIn).toBe(0);
    expect(await shop.db.loginThrottle.count()).toBeLessThanOrEqual(THROTTLE_ROWS + 1);
  }, 15_000);

  it("logouts of sessions nobody signed in to store nothing", async () => {
    await inBatches(async (n) => {
      const data: ShopSessionData = {};
      ensureIdentity(data);
      await endSession(data, n % 2 ? "logout" : "admin_sign_out");
    });
    expect(await shop.db.revokedSession.count()).toBe(0);
  }, 5_000);
});
