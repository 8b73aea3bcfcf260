import { beforeEach, describe, expect, it } from "vitest";
import { acceptedTradeIn, emulatorPerFile, errorOf, newHash } from "./harness";

// Contract: GET /core/merchants/, /core/sessions/{session_hash}/, /core/tradeinitems/{id}/,
// the session and trade-in rows of the error table, Session version and Valuation validity.

const h = emulatorPerFile();
let token: string;
beforeEach(async () => {
  token = (await h.login()).access_token;
});

describe("bearer authentication on every API endpoint", () => {
  it.each([
    ["GET", "/core/merchants/"],
    ["GET", "/core/sessions/abc/"],
    ["GET", "/core/tradeinitems/ti_000001/"],
    ["POST", "/register-purchase"],
    ["POST", "/payments/orders/update"],
    ["GET", "/payments/orders/"],
  ])(
    "%s %s answers 401 unauthorized without the header, and with an unknown token",
    async (method, path) => {
      const missing = await h.fetch(path, { method });
      expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await errorOf(missing)).toMatchObject({ status: 401, error: "unauthorized" });
      const unknown = await h.api("not-a-token", path, { method });
      expect(await errorOf(unknown)).toMatchObject({ status: 401, error: "unauthorized" });
      const basic = await h.fetch(path, {
        method,
        headers: { authorization: "Basic Zm9vOmJhcg==" },
      });
      expect(await errorOf(basic)).toMatchObject({ status: 401, error: "unauthorized" });
    },
  );
});

describe("trailing slashes: the exact form of every path, the wrong one fails", () => {
  it.each([
    ["GET", "/core/merchants"],
    ["GET", "/core/sessions/abc"],
    ["GET", "/core/tradeinitems/ti_000001"],
    ["POST", "/register-purchase/"],
    ["POST", "/payments/orders/update/"],
    ["GET", "/payments/orders"],
    ["POST", "/oauth2/token"],
  ])("%s %s answers 404 not_found naming the right form", async (method, path) => {
    const res = await h.api(token, path, { method });
    const err = await errorOf(res);
    expect(err).toMatchObject({ status: 404, error: "not_found" });
    expect(err.error_description).toMatch(/trailing slash/);
  });
});

describe("GET /core/merchants/", () => {
  it("answers the token's merchant with its products, currency and minimums", async () => {
    const res = await h.api(token, "/core/merchants/");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      merchants: [
        {
          id: "m_demo",
          name: "Demo Electronics",
          products: "valuations+ep1",
          currency: "EUR",
          minimums: { tradein: 5000, ep1: 20000 },
          allowed_origins: ["http://localhost:3000", "http://127.0.0.1:3000"],
          webhook_base: "http://localhost:3000/api/service/webhooks",
          webhook_form: "flat",
          session_versioning: "as_is",
          session_id_form: "hash_version",
          tradein_item_form: "object",
        },
      ],
    });
  });

  it("shows run-time merchant changes made through the control API", async () => {
    await h.control("PATCH", "/merchants/m_demo", {
      products: "valuations",
      minimums: { ep1: 30000 },
    });
    const body = await (await h.api(token, "/core/merchants/")).json();
    expect(body.merchants[0]).toMatchObject({
      products: "valuations",
      minimums: { tradein: 5000, ep1: 30000 },
    });
  });
});

describe("GET /core/sessions/{session_hash}/", () => {
  it("answers a session that was never superseded with its own hash as session_id, and its trade-in item", async () => {
    const ti = await acceptedTradeIn(h);
    const res = await h.api(token, `/core/sessions/${ti.hash}/`);
    expect(res.status).toBe(200);
    const body = await res.json();
    // Contract, Session: session_id "may differ from the queried hash when the session was
    // superseded", so before that it does not differ.
    expect(body.session_id).toBe(ti.hash);
    expect(body.tradein_item).toMatchObject({
      id: ti.id,
      status: "accepted",
      value: 12000,
      currency: "EUR",
    });
    expect(body).not.toHaveProperty("note");
  });

  it("answers a session without a valuation with no tradein_item", async () => {
    const hash = newHash();
    await h.control("POST", "/sessions", { session_hash: hash });
    const body = await (await h.api(token, `/core/sessions/${hash}/`)).json();
    expect(body).toEqual({ session_id: hash });
  });

  it("accepts the returned session_id as the next path parameter, raw or URL-encoded", async () => {
    const ti = await acceptedTradeIn(h);
    await h.control("POST", `/sessions/${ti.hash}/supersede`, {});
    const encoded = await h.api(token, `/core/sessions/${encodeURIComponent(`${ti.hash}|002`)}/`);
    expect(await encoded.json()).toMatchObject({
      session_id: `${ti.hash}|002`,
      tradein_item: { id: ti.id },
    });
    const raw = await h.api(token, `/core/sessions/${ti.hash}|002/`);
    expect((await raw.json()).session_id).toBe(`${ti.hash}|002`);
  });

  it("answers 404 not_found for an unknown hash", async () => {
    const res = await h.api(token, `/core/sessions/${newHash()}/`);
    expect(await errorOf(res)).toMatchObject({ status: 404, error: "not_found" });
  });

  it("answers 404 not_found for an expired session (72 h after its last binding)", async () => {
    const ti = await acceptedTradeIn(h);
    // Access tokens live 1 hour, so log in again after each jump.
    await h.control("POST", "/clock/advance", { hours: 71 });
    token = (await h.login()).access_token;
    expect((await h.api(token, `/core/sessions/${ti.hash}/`)).status).toBe(200);
    await h.control("POST", "/clock/advance", { hours: 1 });
    token = (await h.login()).access_token;
    const res = await h.api(token, `/core/sessions/${ti.hash}/`);
    expect(await errorOf(res)).toMatchObject({ status: 404, error: "not_found" });
  });

  it("answers 404 for another merchant's session and for a version that never existed", async () => {
    const ti = await acceptedTradeIn(h);
    const basic = await h.login({
      client: ["basic-client", "basic-client-secret"],
      username: "basic-admin",
      password: "basic-password",
      scope: "core",
    });
    expect((await h.api(basic.access_token, `/core/sessions/${ti.hash}/`)).status).toBe(404);
    expect((await h.api(token, `/core/sessions/${ti.hash}|007/`)).status).toBe(404);
    expect((await h.api(token, `/core/sessions/${ti.hash}|1/`)).status).toBe(404);
  });

  it("moves to the next version with a note when the cart changes; the old version answers 410 gone", async () => {
    const ti = await acceptedTradeIn(h);
    const moved = await h.control("POST", `/sessions/${ti.hash}/supersede`, {});
    expect((await moved.json()).session_id).toBe(`${ti.hash}|002`);

    // As-is (the default, the public docs' reading): the answer for the hash points at the
    // session_id to query; the trade-in data comes from querying it exactly as returned.
    const byHash = await (await h.api(token, `/core/sessions/${ti.hash}/`)).json();
    expect(byHash).toEqual({ session_id: `${ti.hash}|002`, note: expect.any(String) });

    const old = await h.api(token, `/core/sessions/${encodeURIComponent(`${ti.hash}|001`)}/`);
    const err = await errorOf(old);
    expect(err).toMatchObject({ status: 410, error: "gone" });
    expect(err.error_description).toContain(`${ti.hash}|002`);

    const current = await h.api(token, `/core/sessions/${encodeURIComponent(byHash.session_id)}/`);
    expect(await current.json()).toEqual({
      session_id: `${ti.hash}|002`,
      note: byHash.note,
      tradein_item: expect.objectContaining({ id: ti.id, session_id: `${ti.hash}|002` }),
    });
  });

  it("stops showing a valuation once now is after its valid_until; the trade-in look-up answers 410", async () => {
    const ti = await acceptedTradeIn(h, { valid_for_seconds: 60 });
    await h.control("POST", "/clock/advance", { seconds: 61 });
    const body = await (await h.api(token, `/core/sessions/${ti.hash}/`)).json();
    expect(body).toEqual({ session_id: ti.hash });
    expect((await h.api(token, `/core/tradeinitems/${ti.id}/`)).status).toBe(410);
  });
});

describe("GET /core/tradeinitems/{trade_in_id}/", () => {
  it("answers the trade-in item: id, status, value in cents, currency, ISO 8601 valid_until, device, condition", async () => {
    const created = await h.control("POST", "/tradeins", {
      session_hash: newHash(),
      model_id: "phone-aurora-15",
      answers: { powers_on: "yes", screen: "scratched", body: "as_new", battery: "good" },
    });
    const { tradein_item } = await created.json();
    const res = await h.api(token, `/core/tradeinitems/${tradein_item.id}/`);
    expect(res.status).toBe(200);
    const item = await res.json();
    expect(item).toMatchObject({
      id: tradein_item.id,
      status: "accepted",
      value: 35700, // 420.00 × 0.85
      currency: "EUR",
      device: {
        category: "phones",
        model_id: "phone-aurora-15",
        brand: "Aurora",
        name: "Aurora 15",
      },
      condition: { answers: { screen: "scratched" }, factor: 0.85 },
    });
    expect(Number.isInteger(item.value)).toBe(true);
    expect(item.valid_until).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(item.valid_until) - Date.parse(item.created_at)).toBe(48 * 3600 * 1000);
  });

  it("answers 404 not_found for an unknown id", async () => {
    const res = await h.api(token, "/core/tradeinitems/ti_999999/");
    expect(await errorOf(res)).toMatchObject({ status: 404, error: "not_found" });
  });

  it("answers 410 gone once now is after valid_until", async () => {
    const ti = await acceptedTradeIn(h, { valid_for_seconds: 3600 });
    await h.control("POST", "/clock/advance", { minutes: 59 });
    expect((await h.api(token, `/core/tradeinitems/${ti.id}/`)).status).toBe(200);
    await h.control("POST", "/clock/advance", { minutes: 1 });
    token = (await h.login()).access_token; // the first token expired at the same moment
    const res = await h.api(token, `/core/tradeinitems/${ti.id}/`);
    expect(await errorOf(res)).toMatchObject({ status: 410, error: "gone" });
  });

  it("answers 410 for a valuation created already expired, with the clock set to an absolute time", async () => {
    const ti = await acceptedTradeIn(h, { valid_until: "2030-01-01T00:00:00.000Z" });
    await h.control("POST", "/clock/set", { now: "2030-01-01T00:00:00.000Z" });
    // The token was issued at real time; log in again on the moved clock.
    const fresh = (await h.login()).access_token;
    expect((await h.api(fresh, `/core/tradeinitems/${ti.id}/`)).status).toBe(410);
  });
});
