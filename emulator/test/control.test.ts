import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { acceptedTradeIn, b64, emulatorPerFile, errorOf, makeCart, newHash } from "./harness";

// The control API under /__emulator/, the journal with redaction, the inspector page, and
// --state persistence.

const h = emulatorPerFile({
  modules: [
    {
      name: "test-echo",
      mount(app) {
        // A route of another module reading the raw request body.
        app.post("/test/echo", async (c) => c.json(await c.req.raw.json()));
      },
    },
  ],
});

describe("control API", () => {
  it("reports health", async () => {
    const res = await h.control("GET", "/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok" });
  });

  it("reads, advances, sets and resets the clock", async () => {
    const before = await (await h.control("GET", "/clock")).json();
    expect(Math.abs(before.now_ms - Date.now())).toBeLessThan(1000);
    const advanced = await (await h.control("POST", "/clock/advance", { hours: 2 })).json();
    expect(advanced.offset_ms).toBe(2 * 3600 * 1000);
    const set = await (
      await h.control("POST", "/clock/set", { now: "2031-05-01T12:00:00Z" })
    ).json();
    expect(set.now).toMatch(/^2031-05-01T12:00:0/);
    const reset = await (await h.control("POST", "/clock/reset")).json();
    expect(reset.offset_ms).toBe(0);
    const bad = await h.control("POST", "/clock/set", { now: "yesterday-ish" });
    expect(await errorOf(bad)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("resets state: sessions, trade-ins, tokens and settings are back to the seed", async () => {
    const ti = await acceptedTradeIn(h);
    const { access_token } = await h.login();
    await h.control("PATCH", "/merchants/m_demo", { currency: "GBP" });
    await h.control("PATCH", "/config", { maintenance: true, rate_limit_per_minute: 5 });
    await h.control("POST", "/reset");
    expect((await h.api(access_token, "/core/merchants/")).status).toBe(401);
    const fresh = (await h.login()).access_token;
    expect((await h.api(fresh, `/core/sessions/${ti.hash}/`)).status).toBe(404);
    expect((await (await h.api(fresh, "/core/merchants/")).json()).merchants[0].currency).toBe(
      "EUR",
    );
    expect(await (await h.control("GET", "/config")).json()).toMatchObject({
      maintenance: false,
      rate_limit_per_minute: 100,
    });
  });

  it("creates a trade-in directly from the catalog, or with an explicit value and validity", async () => {
    const hash = newHash();
    const res = await h.control("POST", "/tradeins", {
      session_hash: hash,
      model_id: "laptop-vertex-14",
      answers: { powers_on: "yes", screen: "flawless", body: "worn", battery: "fair" },
      status: "offered",
    });
    expect(res.status).toBe(201);
    const { tradein_item } = await res.json();
    expect(tradein_item).toMatchObject({
      status: "offered",
      value: 61200,
      session_id: hash,
    });
    const unanswered = await h.control("POST", "/tradeins", {
      session_hash: hash,
      model_id: "laptop-vertex-14",
    });
    expect(await errorOf(unanswered)).toMatchObject({ status: 400, error: "bad_request" });
  });

  it("changes merchant settings at run time and validates them", async () => {
    const ok = await h.control("PATCH", "/merchants/m_demo", {
      products: "valuations",
      minimums: { tradein: 1000 },
      webhook_form: "wrapped",
    });
    expect(await ok.json()).toMatchObject({
      products: "valuations",
      minimums: { tradein: 1000, ep1: 20000 },
      webhook_form: "wrapped",
    });
    const decimal = await h.control("PATCH", "/merchants/m_demo", { minimums: { ep1: 10.5 } });
    expect(await errorOf(decimal)).toMatchObject({ status: 400 });
    const unknownField = await h.control("PATCH", "/merchants/m_demo", { colour: "red" });
    expect(await errorOf(unknownField)).toMatchObject({ status: 400 });
    const unknown = await h.control("PATCH", "/merchants/m_nope", { name: "x" });
    expect(await errorOf(unknown)).toMatchObject({ status: 404 });
  });

  it("supersedes a session version as a cart change would", async () => {
    const ti = await acceptedTradeIn(h);
    const res = await h.control("POST", `/sessions/${ti.hash}/supersede`, { note: "Cart changed" });
    expect(await res.json()).toEqual({ session_id: `${ti.hash}|002`, note: "Cart changed" });
    const unknown = await h.control("POST", `/sessions/${newHash()}/supersede`, {});
    expect(unknown.status).toBe(404);
  });
});

describe("journal", () => {
  it("records every request with method, path, status, timing and bodies, secrets redacted", async () => {
    const tokens = await h.login();
    const ti = await acceptedTradeIn(h);
    const cart = makeCart();
    await h.api(tokens.access_token, "/register-purchase", {
      method: "POST",
      json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total },
    });
    await h.api(tokens.access_token, "/core/merchants");
    const res = await h.control("GET", "/journal");
    const text = await res.clone().text();
    const { entries } = await res.json();
    // The control API's own requests are not journaled.
    expect(
      entries.map(
        (e: { method: string; path: string; status: number }) =>
          `${e.method} ${e.path} ${e.status}`,
      ),
    ).toEqual([
      "POST /oauth2/token/ 200",
      "POST /register-purchase 200",
      "GET /core/merchants 404",
    ]);
    const [token, purchase] = entries;
    expect(token.request_headers.authorization).toBe("Basic ***");
    expect(token.request_body).toMatchObject({
      grant_type: "password",
      username: "merchant-admin",
      password: "***",
    });
    expect(token.response_body).toMatchObject({
      access_token: "***",
      refresh_token: "***",
      user_id: "u_demo_admin",
    });
    expect(token.client_id).toBe("demo-client");
    expect(purchase.request_headers.authorization).toBe("Bearer ***");
    expect(purchase.request_body).toMatchObject({
      session_hash: ti.hash,
      order_amount: cart.total,
    });
    expect(purchase.response_body).toMatchObject({ status: "completed" });
    expect(typeof purchase.duration_ms).toBe("number");
    for (const secret of [
      tokens.access_token,
      tokens.refresh_token,
      "merchant-password",
      "demo-client-secret",
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it("reads entries after a sequence number and can be cleared", async () => {
    await h.fetch("/core/merchants/");
    const first = await (await h.control("GET", "/journal")).json();
    await h.fetch("/payments/orders/");
    const after = await (await h.control("GET", `/journal?after=${first.last_seq}`)).json();
    expect(after.entries.map((e: { path: string }) => e.path)).toEqual(["/payments/orders/"]);
    await h.control("DELETE", "/journal");
    expect((await (await h.control("GET", "/journal")).json()).entries).toEqual([]);
  });

  it("leaves the raw body readable by other modules' routes, and records their JSON answers", async () => {
    const res = await h.fetch("/test/echo", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hello: "world", client_secret: "s3cret" }),
    });
    expect(await res.json()).toEqual({ hello: "world", client_secret: "s3cret" });
    await expect
      .poll(
        async () => (await (await h.control("GET", "/journal")).json()).entries[0]?.response_body,
      )
      .toEqual({ hello: "world", client_secret: "***" });
  });

  it("records webhook attempts for the dispatcher", () => {
    h.ctx.journal.recordWebhook({
      at: h.ctx.clock.now(),
      url: "http://localhost:3000/api/service/webhooks/order",
      status: 200,
      duration_ms: 3,
      attempt: 1,
      request_headers: { "x-service-signature": "abc" },
      request_body: '{"order_id":"1"}',
    });
    const [entry] = h.ctx.journal.read({ kind: "webhook" });
    expect(entry).toMatchObject({ kind: "webhook", method: "POST", status: 200, attempt: 1 });
    expect(entry?.request_headers?.["x-service-signature"]).toBe("***");
  });
});

describe("inspector", () => {
  it("serves an accessible HTML page that polls the journal", async () => {
    const res = await h.fetch("/__emulator/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<caption>");
    expect(html).toContain('role="status"');
    expect(html).toContain('"/__emulator"');
    expect(html).toContain("/journal?after=");
    expect((await h.fetch("/__emulator", { redirect: "manual" })).status).toBe(302);
  });
});

describe("--state FILE", () => {
  function start(stateFile: string): Promise<{ url: string; stop: () => Promise<string> }> {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "emulator/src/main.ts",
        "--port",
        "0",
        "--host",
        "127.0.0.1",
        "--state",
        stateFile,
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    let out = "";
    let started = false;
    return new Promise((resolve, reject) => {
      child.on("exit", (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const url = /service API on (http:\/\/\S+)/.exec(out)?.[1];
        if (url && !started) {
          started = true;
          child.removeAllListeners("exit");
          resolve({
            url,
            stop: () =>
              new Promise((done) => {
                child.on("exit", () => done(out));
                child.kill("SIGTERM");
              }),
          });
        }
      });
    });
  }

  it("saves state on exit and loads it on start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-state-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "state.json");
    const first = await start(file);
    const hash = newHash();
    const created = await fetch(`${first.url}/__emulator/tradeins`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_hash: hash }),
    });
    const { tradein_item } = await created.json();
    expect(await first.stop()).toContain("state saved");
    expect(JSON.parse(readFileSync(file, "utf8")).state.tradein_items).toHaveLength(1);

    const second = await start(file);
    const list = await (await fetch(`${second.url}/__emulator/tradeins`)).json();
    expect(list.tradein_items.map((t: { id: string }) => t.id)).toEqual([tradein_item.id]);
    await second.stop();
  }, 30_000);
});
