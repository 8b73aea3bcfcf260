import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestShop,
  newSession,
  seedCustomer,
  sessionCookie,
  type TestShop,
} from "@/test-support/test-shop";
import { GET } from "./route";

// Contract: Merchant endpoints (shopper_data), Resources › Shopper data and Session hash,
// Errors by condition (shopper_data: customer not found → 404 not_found).

let shop: TestShop;
beforeAll(async () => {
  shop = await createTestShop();
});
afterAll(() => shop.cleanup());

const get = (cookie?: string) =>
  GET(
    new Request("http://shop.test/api/service/shopper_data", {
      headers: cookie ? { cookie } : {},
    }),
  );

describe("GET /api/service/shopper_data", () => {
  it("answers 404 not_found, uncached, for an anonymous session and for no session at all", async () => {
    for (const res of [await get(await sessionCookie(newSession())), await get()]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({
        error: "not_found",
        error_description: expect.any(String),
      });
    }
  });

  it("answers 404 when the session names a customer that no longer exists", async () => {
    const res = await get(await sessionCookie(newSession("gone-customer")));
    expect(res.status).toBe(404);
  });

  it("answers the logged-in customer and an HMAC session hash, never the raw id or salt", async () => {
    const customer = await seedCustomer(shop.db);
    const session = newSession(customer.id);
    const res = await get(await sessionCookie(session));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    // An independent HMAC-SHA256: key = salt, message = session id, lowercase hex.
    const expected = createHmac("sha256", session.salt).update(session.sessionId).digest("hex");
    expect(JSON.parse(text)).toEqual({
      customer: {
        id: customer.id,
        email: customer.email,
        given_name: "Ada",
        family_name: "Lovelace",
      },
      session_hash_token: expected,
    });
    expect(text).not.toContain(session.sessionId);
    expect(text).not.toContain(session.salt);
  });

  it("computes the hash afresh from the session's current id", async () => {
    const customer = await seedCustomer(shop.db);
    const first = newSession(customer.id);
    const rotated = { ...newSession(customer.id), salt: first.salt };
    const a = (await (await get(await sessionCookie(first))).json()).session_hash_token;
    const b = (await (await get(await sessionCookie(rotated))).json()).session_hash_token;
    expect(a).not.toBe(b);
    expect(b).toBe(createHmac("sha256", first.salt).update(rotated.sessionId).digest("hex"));
  });

  it("ignores a cookie sealed with another secret", async () => {
    const res = await get("shop_session=Fe26.2**forged**value");
    expect(res.status).toBe(404);
  });
});
