import { beforeEach, describe, expect, it } from "vitest";
import { acceptedTradeIn, b64, emulatorPerFile, errorOf, makeCart, newHash } from "./harness";

// Contract: POST /register-purchase, its error rows, Cart arithmetic, integer cents.

const h = emulatorPerFile();
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

const register = (json: unknown) => h.api(token, "/register-purchase", { method: "POST", json });

describe("POST /register-purchase", () => {
  it("registers the purchase, applies the trade-in and marks it used", async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart();
    const res = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
      order_id: "SO-1001",
      customer_id: "cust-7",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      order_id: "SO-1001",
      cart_id: cart.id,
      status: "completed",
      amount: cart.total,
      currency: "EUR",
      trade_in_discount: 12000,
      customer_id: "cust-7",
      tradein_item: ti.id,
      duplicate: false,
    });
    const item = await (await h.api(token, `/core/tradeinitems/${ti.id}/`)).json();
    expect(item.status).toBe("used");
    // A used trade-in is no longer the session's active one.
    const session = await (await h.api(token, `/core/sessions/${ti.hash}/`)).json();
    expect(session).not.toHaveProperty("tradein_item");
  });

  it("recognises a repeat of the same purchase and does not count it twice", async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart();
    const body = { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total };
    const first = await (await register(body)).json();
    const again = await register(body);
    expect(again.status).toBe(200);
    const second = await again.json();
    expect(second).toMatchObject({ id: first.id, duplicate: true });
    const list = await (await h.api(token, "/payments/orders/")).json();
    expect(list.orders).toHaveLength(1);
    // The control API still shows both requests the shop sent, so a test can catch a shop that
    // registers twice although the service counts the purchase once.
    const { receipts } = await (await h.control("GET", "/register-purchases")).json();
    const mine = receipts.filter((r: { session_hash: string }) => r.session_hash === ti.hash);
    expect(mine).toMatchObject([
      { status: 200, cart_id: cart.id, order_amount: cart.total, duplicate: false },
      { status: 200, cart_id: cart.id, order_amount: cart.total, duplicate: true },
    ]);
  });

  it("records rejected requests too, and forgets them all on reset", async () => {
    const bad = await register({ session_hash: newHash(), cart: "%%%", order_amount: 1 });
    expect(bad.status).toBe(400);
    const { receipts } = await (await h.control("GET", "/register-purchases")).json();
    expect(receipts.at(-1)).toMatchObject({ status: 400, cart_id: null, duplicate: false });
    await h.control("POST", "/reset");
    expect((await (await h.control("GET", "/register-purchases")).json()).receipts).toEqual([]);
  });

  it("accepts the session_id form <hash>|NNN of the current version", async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart();
    const res = await register({
      session_hash: `${ti.hash}|001`,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(res.status).toBe(200);
  });

  it("answers 404 not_found for an unknown session hash and for an expired session", async () => {
    const cart = makeCart();
    const unknown = await register({
      session_hash: newHash(),
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(await errorOf(unknown)).toMatchObject({ status: 404, error: "not_found" });
    const ti = await acceptedTradeIn(h);
    await h.control("POST", "/clock/advance", { hours: 72 });
    token = (await h.login()).access_token;
    const expired = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(await errorOf(expired)).toMatchObject({ status: 404, error: "not_found" });
  });

  it.each([
    ["not Base64", "%%% not base64 %%%"],
    ["Base64 of text that is not JSON", Buffer.from("hello there").toString("base64")],
    ["Base64 of truncated JSON", Buffer.from('{"id":"c1",').toString("base64")],
    ["an empty string", ""],
  ])("answers 400 bad_request when the cart is %s", async (_, cart) => {
    const ti = await acceptedTradeIn(h);
    const res = await register({ session_hash: ti.hash, cart, order_amount: 30000 });
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it.each([
    ["a decimal", 302.5],
    ["a string", "30250"],
    ["negative", -1],
    ["missing", undefined],
  ])("answers 400 bad_request when order_amount is %s", async (_, amount) => {
    const ti = await acceptedTradeIn(h);
    const res = await register({
      session_hash: ti.hash,
      cart: b64(makeCart()),
      order_amount: amount,
    });
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 400, error: "bad_request" });
    expect(err.error_description).toContain("order_amount");
  });

  it.each([
    [
      "a decimal unit price",
      (c: ReturnType<typeof makeCart>) => ({ ...c, items: [{ ...c.items[0], price: 250.5 }] }),
    ],
    [
      "an item total that does not add up",
      (c: ReturnType<typeof makeCart>) => ({ ...c, items: [{ ...c.items[0], total: 1 }] }),
    ],
    [
      "a price that is not the items' sum",
      (c: ReturnType<typeof makeCart>) => ({ ...c, price: c.price + 1 }),
    ],
    [
      "a total that ignores the discounts",
      (c: ReturnType<typeof makeCart>) => ({
        ...c,
        discounts: [{ id: "d1", name: "Promo", total: 1000 }],
      }),
    ],
    ["a missing currency", (c: ReturnType<typeof makeCart>) => ({ ...c, currency: undefined })],
    ["no items", (c: ReturnType<typeof makeCart>) => ({ ...c, items: [] })],
    [
      "a quantity as a string",
      (c: ReturnType<typeof makeCart>) => ({ ...c, items: [{ ...c.items[0], quantity: "1" }] }),
    ],
  ])("answers 400 bad_request for a cart with %s", async (_, mutate) => {
    const ti = await acceptedTradeIn(h);
    const cart = mutate(makeCart());
    const res = await register({ session_hash: ti.hash, cart: b64(cart), order_amount: 30000 });
    expect(await errorOf(res)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("accepts a cart whose discounts are subtracted from the total", async () => {
    const ti = await acceptedTradeIn(h);
    const base = makeCart();
    const cart = {
      ...base,
      discounts: [{ id: "d1", name: "Promo", total: 1000 }],
      total: base.total - 1000,
    };
    const res = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(res.status).toBe(200);
  });

  it("answers 400 bad_request for a body that is not JSON or misses the session hash", async () => {
    const notJson = await h.api(token, "/register-purchase", {
      method: "POST",
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(await errorOf(notJson)).toMatchObject({ status: 400, error: "bad_request" });
    const noHash = await register({ cart: b64(makeCart()), order_amount: 100 });
    expect(await errorOf(noHash)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("requires the trade-in to be accepted: an offered one answers 400", async () => {
    const ti = await acceptedTradeIn(h, { status: "offered" });
    const cart = makeCart();
    const res = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 400, error: "bad_request" });
    expect(err.error_description).toContain("not accepted");
  });

  it("requires the trade-in to be unexpired: after valid_until it answers 410 gone", async () => {
    const ti = await acceptedTradeIn(h, { valid_for_seconds: 600 });
    await h.control("POST", "/clock/advance", { minutes: 10 });
    const cart = makeCart();
    const res = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(await errorOf(res)).toMatchObject({ status: 410, error: "gone" });
  });

  it("answers 400 when the session has no trade-in, or its trade-in was used by another cart", async () => {
    const hash = newHash();
    await h.control("POST", "/sessions", { session_hash: hash });
    const cart = makeCart();
    const none = await register({ session_hash: hash, cart: b64(cart), order_amount: cart.total });
    expect(await errorOf(none)).toMatchObject({ status: 400, error: "bad_request" });

    const ti = await acceptedTradeIn(h);
    await register({ session_hash: ti.hash, cart: b64(cart), order_amount: cart.total });
    const other = makeCart();
    const reused = await register({
      session_hash: ti.hash,
      cart: b64(other),
      order_amount: other.total,
    });
    const err = await errorOf(reused);
    expect(err).toMatchObject({ status: 400, error: "bad_request" });
    expect(err.error_description).toContain("already used");
  });

  it("answers 400 for a cart in another currency than the trade-in, or below the trade-in minimum", async () => {
    const ti = await acceptedTradeIn(h, { currency: "GBP" });
    const cart = makeCart({ currency: "EUR" });
    const currency = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect((await errorOf(currency)).error_description).toContain("GBP");

    const small = await acceptedTradeIn(h);
    const tiny = makeCart({}, 3000); // 30.00 + tax = 36.30 < 50.00
    const below = await register({
      session_hash: small.hash,
      cart: b64(tiny),
      order_amount: tiny.total,
    });
    const err = await errorOf(below);
    expect(err).toMatchObject({ status: 400, error: "bad_request" });
    expect(err.error_description).toContain("minimum");
  });

  it("answers 410 for a superseded session version", async () => {
    const ti = await acceptedTradeIn(h);
    await h.control("POST", `/sessions/${ti.hash}/supersede`, {});
    const cart = makeCart();
    const res = await register({
      session_hash: `${ti.hash}|001`,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(await errorOf(res)).toMatchObject({ status: 410, error: "gone" });
    const current = await register({
      session_hash: `${ti.hash}|002`,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(current.status).toBe(200);
  });

  it("takes a large Base64 cart (no body size limit)", async () => {
    const ti = await acceptedTradeIn(h);
    const items = Array.from({ length: 2000 }, (_, i) => ({
      id: `sku-${i}`,
      name: `Cable ${i}`,
      description: "x".repeat(100),
      url: `http://localhost:3000/p/${i}`,
      quantity: 1,
      price: 1000,
      tax: 210,
      total: 1210,
    }));
    const cart = {
      id: "big-cart",
      currency: "EUR",
      items,
      price: 2_000_000,
      tax: 420_000,
      total: 2_420_000,
    };
    const res = await register({
      session_hash: ti.hash,
      cart: b64(cart),
      order_amount: cart.total,
    });
    expect(res.status).toBe(200);
  });
});
