import { beforeEach, describe, expect, it } from "vitest";
import { acceptedTradeIn, b64, emulatorPerFile, errorOf, makeCart } from "./harness";

// Contract: "All monetary values are integers in minor currency units … Decimals are rejected"
// (What the service does §5, Limits) — in the JSON text, where `363.00` parses to 363 — and
// register-purchase's order_amount read against the cart it comes with.

const h = emulatorPerFile();
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

/** A JSON body sent exactly as written (JSON.stringify would drop the `.00`). */
const raw = (path: string, text: string) =>
  h.api(token, path, {
    method: "POST",
    body: text,
    headers: { "content-type": "application/json" },
  });

/** Base64 of a JSON text exactly as written. */
const b64Text = (text: string) => Buffer.from(text).toString("base64");

describe("decimal notation in the JSON text is rejected for every money field", () => {
  it('answers 400 for "order_amount": 363.00 and for 3.63e4 in register-purchase', async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart({}, 30000);
    for (const written of [`${cart.total}.00`, `${cart.total / 100}e2`]) {
      const res = await raw(
        "/register-purchase",
        `{"session_hash":"${ti.hash}","cart":"${b64(cart)}","order_amount":${written}}`,
      );
      const err = await errorOf(res);
      expect(err).toMatchObject({ status: 400, error: "bad_request" });
      expect(err.error_description).toContain("order_amount");
      expect(err.error_description).toContain(written);
    }
    // Nothing was registered: the trade-in is still there to use.
    const item = await (await h.api(token, `/core/tradeinitems/${ti.id}/`)).json();
    expect(item.status).toBe("accepted");
  });

  it.each([
    ["items.0.price", (t: string) => t.replace(/"price":(\d+),"tax"/, '"price":$1.00,"tax"')],
    ["total", (t: string) => t.replace(/"total":(\d+)}$/, '"total":$1.00}')],
    ["items.0.total", (t: string) => t.replace(/"total":(\d+)}/, '"total":$1.0}')],
    ["items.0.quantity", (t: string) => t.replace('"quantity":1', '"quantity":1.0')],
    ["discounts.0.total", (t: string) => t.replace('"total":1000}]', '"total":1000.00}]')],
  ])("answers 400 for a Base64 cart whose %s is written as a decimal", async (path, rewrite) => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart({ discounts: [{ id: "d", name: "Promo", total: 1000 }] });
    cart.total -= 1000;
    const text = rewrite(JSON.stringify(cart));
    expect(text).not.toBe(JSON.stringify(cart));
    const res = await raw(
      "/register-purchase",
      JSON.stringify({ session_hash: ti.hash, cart: b64Text(text), order_amount: cart.total }),
    );
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 400, error: "bad_request" });
    expect(err.error_description).toContain(`cart.${path}`);
  });

  it("answers 400 in the order update: an item quantity, a cart object, a Base64 cart", async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart({}, 25000, 2);
    const ok = await h.api(token, "/register-purchase", {
      method: "POST",
      json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total, order_id: "SO-9" },
    });
    expect(ok.status).toBe(200);
    const cartText = JSON.stringify(cart).replace(
      `"total":${cart.total}`,
      `"total":${cart.total}.00`,
    );
    for (const body of [
      '{"order_id":"SO-9","update_type":"partial_shipment","items":[{"id":"sku-1","quantity":1.0}]}',
      `{"order_id":"SO-9","update_type":"cart_update","cart":${cartText}}`,
      `{"order_id":"SO-9","update_type":"cart_update","cart":"${b64Text(cartText)}"}`,
    ]) {
      const err = await errorOf(await raw("/payments/orders/update", body));
      expect(err).toMatchObject({ status: 400, error: "bad_request" });
      expect(err.error_description).toMatch(/decimal/);
    }
    const orders = await (await h.control("GET", "/orders")).json();
    expect(orders.orders[0].updates).toEqual([]);
  });

  it("answers 400 on the SDK routes (purchase amounts) and the control API (merchant minimums)", async () => {
    const sdk = await h.fetch("/sdk/v1/payment-option", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: `{"merchant_id":"m_demo","session_hash":null,"products":"valuations+ep1","locale":"en","purchase":{"cart":{"id":"c","currency":"EUR","items":[{"id":"i","name":"n","description":"","url":"","quantity":1,"price":15000.00,"tax":0,"total":15000}],"price":15000,"tax":0,"total":15000}}}`,
    });
    const sdkErr = await errorOf(sdk);
    expect(sdkErr).toMatchObject({ status: 400, error: "bad_request" });
    expect(sdkErr.error_description).toContain("purchase.cart.items.0.price");

    const control = await h.fetch("/__emulator/merchants/m_demo", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: '{"minimums":{"tradein":5000.00}}',
    });
    expect(control.status).toBe(400);
    // A fault's probability is a fraction by nature: the control API checks money only.
    const fault = await h.fetch("/__emulator/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"endpoint":"session","status":503,"probability":0.5}',
    });
    expect(fault.status).toBe(201);
  });
});

describe("register-purchase: order_amount against the cart", () => {
  it("answers 400 when order_amount is below the cart total (a trade-in taken off, a wrong unit)", async () => {
    const ti = await acceptedTradeIn(h);
    const cart = makeCart({}, 30000);
    for (const amount of [cart.total - ti.value, Math.floor(cart.total / 100), 0]) {
      const res = await h.api(token, "/register-purchase", {
        method: "POST",
        json: { session_hash: ti.hash, cart: b64(cart), order_amount: amount },
      });
      const err = await errorOf(res);
      expect(err).toMatchObject({ status: 400, error: "bad_request" });
      expect(err.error_description).toContain("cart total");
    }
  });

  it("takes the cart total, or more for delivery and fees outside the cart", async () => {
    for (const extra of [0, 495]) {
      const ti = await acceptedTradeIn(h);
      const cart = makeCart({}, 30000);
      const res = await h.api(token, "/register-purchase", {
        method: "POST",
        json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total + extra },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).amount).toBe(cart.total + extra);
    }
  });
});
