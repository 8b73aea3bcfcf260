import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  openPayment,
  seedCart,
  sessionCookie,
  setUpTestShop,
  webhookRequest,
} from "@/test-support/test-shop";
import { POST as checkout } from "./checkout/route";
import { POST as pendingOrder } from "./pending-order/route";
import { GET as purchaseData } from "./purchase_data/route";
import { POST as webhook } from "./webhooks/order/route";

// Hostile strings in every field of the bodies the integration's routes take: a string that is
// not well-formed Unicode (a lone UTF-16 surrogate, which JSON carries as an escape) is refused
// with the contract's 400 before anything is stored or sent on; nothing is ever a 500, and a
// refused body leaves no record behind (docs/security.md, "Bodies and inputs").

const shop = setUpTestShop();

const PENDING = "http://shop.test/api/service/pending-order";
const CHECKOUT_URL = "http://shop.test/api/service/checkout";
// NUL too: PostgreSQL's text cannot hold it (found by this property on PostgreSQL).
const LONE = ["\ud800", "\udfff", "1 Main\ud800", "\udc00x", "a\ud83d", "nul\u0000"];

/** Any string at all, lone surrogates included, and often one of them on its own. */
const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(...LONE),
  fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...LONE)).map(([a, b]) => a + b),
);

type Body = Record<string, unknown>;
const ADDRESS_KEYS = Object.keys(CHECKOUT.billing) as (keyof typeof CHECKOUT.billing)[];
/** Every string field of the checkout body, as a way to put `value` into it. */
const CHECKOUT_FIELDS: [string, (body: Body, value: string) => Body][] = [
  ["email", (b, v) => ({ ...b, email: v })],
  ["shipping_method", (b, v) => ({ ...b, shipping_method: v })],
  ["cart_id", (b, v) => ({ ...b, cart_id: v })],
  ...ADDRESS_KEYS.flatMap((key): [string, (body: Body, value: string) => Body][] => [
    [`billing.${key}`, (b, v) => ({ ...b, billing: { ...CHECKOUT.billing, [key]: v } })],
    [`shipping.${key}`, (b, v) => ({ ...b, shipping: { ...CHECKOUT.billing, [key]: v } })],
  ]),
];

/** With `paymentOpen`, the payment window has read purchase_data (its details kept): the state
 *  in which ready-to-place-order can make the order. */
async function freshCart(paymentOpen: boolean) {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
  ]);
  if (paymentOpen) await openPayment(session);
  return { cart, cookie: await sessionCookie(session) };
}

/**
 * The cart each property case uses: a refused body writes nothing (each case checks that), so its
 * cart and cookie serve the next case as they were; only a case that stored something takes a
 * new one. Keeps a case's cost to the route's own work: most cases are refused.
 */
function cartForCases(paymentOpen = false) {
  let open: ReturnType<typeof freshCart> | undefined;
  return {
    get: () => {
      open ??= freshCart(paymentOpen);
      return open;
    },
    usedUp: () => {
      open = undefined;
    },
  };
}

async function writtenFor(cartId: string) {
  return {
    orders: await shop.db.order.count({ where: { cartId } }),
    checkouts: await shop.db.serviceCheckout.count({ where: { cartId } }),
  };
}

describe("checkout details that are not well-formed Unicode", () => {
  it('"1 Main\\ud800" is refused with 400 naming the field, and no order or details exist', async () => {
    const { cart, cookie } = await freshCart(false);
    const body = {
      cart_id: cart.id,
      ...CHECKOUT,
      billing: { ...CHECKOUT.billing, address: "1 Main\ud800" },
    };
    for (const route of [pendingOrder, checkout]) {
      const res = await route(
        jsonRequest(route === checkout ? CHECKOUT_URL : PENDING, body, cookie),
      );
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer).toMatchObject({ error: "bad_request" });
      expect(answer.error_description).toMatch(/billing street address/);
    }
    expect(await writtenFor(cart.id)).toEqual({ orders: 0, checkouts: 0 });
    // purchase_data shows the cart, and no details of the refused body.
    const purchase = await (
      await purchaseData(
        new Request("http://shop.test/api/service/purchase_data", { headers: { cookie } }),
      )
    ).json();
    expect(JSON.stringify(purchase)).not.toContain("1 Main");
  });

  it("any string in any field: 200 with the whole order, or a 4xx with nothing written; never a 500", async () => {
    const carts = cartForCases(true);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CHECKOUT_FIELDS), anyString, async ([, put], value) => {
        const { cart, cookie } = await carts.get();
        const body = put({ cart_id: cart.id, ...CHECKOUT }, value);
        const res = await pendingOrder(jsonRequest(PENDING, body, cookie));
        expect([200, 400, 409]).toContain(res.status);
        const written = await writtenFor(cart.id);
        if (written.orders) carts.usedUp();
        if (res.status === 200) {
          expect(written.orders).toBe(1);
          const order = await shop.db.order.findUniqueOrThrow({
            where: { cartId: cart.id },
            include: { billingAddress: true, shippingAddress: true, items: true },
          });
          expect(order.items).toHaveLength(1);
          const stored = JSON.stringify(order);
          expect(JSON.parse(stored)).toEqual(JSON.parse(stored.replace(/\\ud[89a-f]../gi, "")));
        } else {
          // The details kept when the payment window opened, and nothing more.
          expect(written).toEqual({ orders: 0, checkouts: 1 });
        }
      }),
      // About one case in nine is accepted and writes a whole order, the rest are refused: 25
      // cases put a lone surrogate into storable fields many times over (the first to do so
      // fails without the check), within a third of the limit on one loaded core.
      { numRuns: 25 },
    );
  });

  it("the details kept by POST /api/service/checkout: any string in any field, never a 500", async () => {
    const carts = cartForCases();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CHECKOUT_FIELDS), anyString, async ([, put], value) => {
        const { cart, cookie } = await carts.get();
        const res = await checkout(jsonRequest(CHECKOUT_URL, put({ ...CHECKOUT }, value), cookie));
        expect(res.status).toBeLessThan(500);
        const written = await writtenFor(cart.id);
        if (written.orders || written.checkouts) carts.usedUp();
        if (res.status >= 400) expect(written).toEqual({ orders: 0, checkouts: 0 });
      }),
      { numRuns: 40 },
    );
  });
});

describe("a signed webhook with strings that are not well-formed Unicode", () => {
  const FIELDS = ["id", "event", "order_id", "cart_id", "status", "currency", "customer_id"];
  const base = (n: number): Body => ({
    id: `wh_wf_${n}`,
    event: "order.payment_completed",
    order_id: `svc_wf_${n}`,
    cart_id: `cart_wf_${n}`,
    status: "payment_completed",
    amount: 1000,
    currency: "EUR",
    trade_in_discount: 0,
    customer_id: null,
  });
  let n = 0;

  it("a lone surrogate in id or cart_id is 400 on every retry, and nothing is stored", async () => {
    const before = await shop.db.serviceNotification.count();
    for (const field of ["id", "cart_id"]) {
      const body = { ...base(++n), [field]: "wh\ud800" };
      for (let attempt = 0; attempt < 3; attempt++) {
        const res = await webhook(webhookRequest(body));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: "bad_request" });
      }
    }
    expect(await shop.db.serviceNotification.count()).toBe(before);
  });

  it("an amount beyond the stored integer's range is 400, and nothing is stored", async () => {
    const before = await shop.db.serviceNotification.count();
    for (const field of ["amount", "trade_in_discount"]) {
      for (const value of [3_000_000_000, -3_000_000_000, Number.MAX_SAFE_INTEGER]) {
        const res = await webhook(webhookRequest({ ...base(++n), [field]: value }));
        expect(res.status, `${field} ${value}`).toBe(400);
      }
    }
    expect(await shop.db.serviceNotification.count()).toBe(before);
  });

  it("any string in any field, flat or wrapped in data: 200 and stored once, or 400 and nothing stored", async () => {
    // One count per case: nothing but this property stores notifications meanwhile (the apply
    // after the answer changes a row's outcome, never the number of rows).
    let stored = await shop.db.serviceNotification.count();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FIELDS),
        anyString,
        fc.boolean(),
        async (field, value, wrap) => {
          const flat = { ...base(++n), [field]: value };
          const { cart_id, status, ...rest } = flat;
          const body = wrap ? { ...rest, data: { cart_id, status } } : flat;
          const before = stored;
          const res = await webhook(webhookRequest(body));
          expect([200, 400]).toContain(res.status);
          stored = await shop.db.serviceNotification.count();
          expect(stored - before).toBe(res.status === 200 ? 1 : 0);
        },
      ),
      { numRuns: 80 },
    );
  });
});
