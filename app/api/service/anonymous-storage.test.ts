import { describe, expect, it } from "vitest";
import { addToCart } from "@/lib/shop/cart";
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
// storage). A cookieless request reaches every route with a brand-new session (proxy.ts gives it
// one), so each request below carries a new session of its own, as the proxy would have made it.
// The cap of anonymous carts is small here so that the requests pass it ten times over.

const CARTS = 100;
const shop = setUpTestShop({ ANONYMOUS_CARTS_MAX: String(CARTS) });
// New sessions per route, forty and fifty times the cap: the most that fit about 15 s of CPU for
// the file (docs/security.md, Bounded storage: what a request costs, and why not 10,000). Under
// `taskset -c 0 nice` beside a `vitest run lib` the two tests took 49 s and 41 s; their limits are
// three times that.
const SEEN_REQUESTS = 4_000;
const CART_REQUESTS = 4_000;
// The pending order stores nothing for a session without a cart, and costs more than the
// trade-in-seen beside it: every tenth session asks for one.
const PENDING_EVERY = 10;

/** Fresh sessions' cookies, one per request, sealed as the proxy seals them. */
async function freshCookies() {
  return Promise.all(Array.from({ length: SEEN_REQUESTS }, () => sessionCookie(newSession())));
}

/** Ten at a time, as many as the database pool's connections: a hundred transactions at once
 *  queued past Prisma's wait for a transaction to start on PostgreSQL on a loaded machine. */
async function inBatches(work: (n: number) => Promise<unknown>, requests: number) {
  for (let batch = 0; batch < requests / 10; batch++) {
    await Promise.all(Array.from({ length: 10 }, (_, i) => work(batch * 10 + i)));
  }
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

describe("cookieless requests to each route an anonymous request can write", () => {
  it("4,000 to trade-in-seen keep at most the cap of seen trade-ins; pending-order (400, and 100 to the service checkout) store nothing for a session without a cart", async () => {
    const cookies = await freshCookies();
    let statuses = "";
    await inBatches(async (n) => {
      const cookie = cookies[n] as string;
      const seen = await tradeInSeen(
        jsonRequest("http://shop.test/api/service/trade-in-seen", { tradein_id: `t${n}` }, cookie),
      );
      statuses += seen.status === 200 ? "" : `seen ${n}: ${seen.status}; `;
      if (n % PENDING_EVERY !== 0) return;
      const order = await pendingOrder(
        jsonRequest("http://shop.test/api/service/pending-order", CHECKOUT, cookie),
      );
      statuses += order.status === 409 ? "" : `pending ${n}: ${order.status}; `;
    }, SEEN_REQUESTS);
    expect(statuses).toBe("");
    // A seen trade-in is kept per session, up to the cap (the oldest seen dropped past it).
    expect(await shop.db.sessionTradeIn.count()).toBeLessThanOrEqual(CARTS);
    expect(await shop.db.order.count()).toBe(0);
    expect(await shop.db.serviceCheckout.count()).toBe(0);
    // The service checkout asks the service before it looks for a cart: 100 are enough to show
    // it stores nothing without one.
    for (const cookie of cookies.slice(0, 100)) {
      const res = await checkout(
        jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie),
      );
      expect(res.status).toBe(409);
    }
    expect(await shop.db.serviceCheckout.count()).toBe(0);
  }, 150_000);

  it("4,000 add-to-carts keep at most ANONYMOUS_CARTS_MAX open anonymous carts; a signed-in shopper's cart and a cart being paid stay, a payment given up two hours ago does not", async () => {
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
    }, CART_REQUESTS);
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
  }, 120_000);
});
