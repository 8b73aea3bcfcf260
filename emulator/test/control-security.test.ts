import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createEmulator } from "../src/app";
import { webhooksFor } from "../src/webhooks/module";
import { acceptedTradeIn, emulatorPerFile, errorOf, newHash } from "./harness";

// The control API and the journal answer this machine's own tools only: no web page on another
// origin may reset the emulator, inject faults, move its clock or read the journal. Ids never
// repeat across restarts, and the emulator listens on loopback unless told otherwise.

const h = emulatorPerFile();
const EVIL = "http://evil.example";

async function tradeInCount(): Promise<number> {
  const list = (await (await h.control("GET", "/tradeins")).json()) as { tradein_items: [] };
  return list.tradein_items.length;
}

describe("control API from a foreign web page", () => {
  it("refuses a JSON request with a foreign Origin, and nothing changes", async () => {
    await acceptedTradeIn(h);
    const before = await tradeInCount();
    const res = await h.fetch("/__emulator/reset", {
      method: "POST",
      headers: { "content-type": "application/json", origin: EVIL },
      body: "{}",
    });
    expect(await errorOf(res)).toMatchObject({ status: 403, error: "forbidden" });
    expect(await tradeInCount()).toBe(before);
  });

  it.each([
    ["text/plain (a no-cors fetch)", { "content-type": "text/plain;charset=UTF-8" }],
    ["a form post", { "content-type": "application/x-www-form-urlencoded" }],
    ["multipart", { "content-type": "multipart/form-data; boundary=x" }],
    ["no content type (a bodiless no-cors fetch)", {}],
    ["application/jsonp", { "content-type": "application/jsonp" }],
  ])("refuses %s without any Origin header", async (_name, headers) => {
    await acceptedTradeIn(h);
    const before = await tradeInCount();
    for (const [method, p] of [
      ["POST", "/reset"],
      ["POST", "/clock/advance"],
      ["POST", "/faults"],
      ["PATCH", "/config"],
      ["DELETE", "/journal"],
    ]) {
      const res = await h.fetch(`/__emulator${p}`, {
        method,
        headers,
        body: '{"hours":5,"endpoint":"/oauth2/token/","status":500,"maintenance":true}',
      });
      expect(res.status, `${method} ${p}`).toBe(403);
    }
    expect(await tradeInCount()).toBe(before);
    const clock = await (await h.control("GET", "/clock")).json();
    expect(clock.offset_ms).toBe(0);
    expect((await (await h.control("GET", "/faults")).json()).faults).toEqual([]);
  });

  it("refuses a foreign preflight without CORS headers", async () => {
    const res = await h.fetch("/__emulator/reset", {
      method: "OPTIONS",
      headers: {
        origin: EVIL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses to show the journal to another origin or a cross-site fetch", async () => {
    const foreign = await h.fetch("/__emulator/journal", { headers: { origin: EVIL } });
    expect(foreign.status).toBe(403);
    const crossSite = await h.fetch("/__emulator/journal", {
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const nullOrigin = await h.fetch("/__emulator/journal", { headers: { origin: "null" } });
    expect(nullOrigin.status).toBe(403);
  });

  it("still answers its own tools and its own inspector page", async () => {
    expect((await h.control("GET", "/journal")).status).toBe(200);
    const own = await h.fetch("/__emulator/clock/advance", {
      method: "POST",
      headers: { "content-type": "application/json", origin: h.url },
      body: JSON.stringify({ seconds: 1 }),
    });
    expect(own.status).toBe(200);
    expect((await h.control("POST", "/clock/reset")).status).toBe(200);
    expect((await h.fetch("/__emulator/")).status).toBe(200);
  });
});

describe("control API reached through a foreign host name (DNS rebinding)", () => {
  // A page on evil.example whose name now resolves to 127.0.0.1 is same-origin with what it
  // reaches: Origin and Host both say evil.example. Only the Host name gives it away.
  const post = (emulator: ReturnType<typeof createEmulator>, host: string) =>
    emulator.app.request(`http://${host}/__emulator/clock/advance`, {
      method: "POST",
      headers: { host, origin: `http://${host.toLowerCase()}`, "content-type": "application/json" },
      body: JSON.stringify({ hours: 5 }),
    });

  it("refuses a same-origin request whose Host is not a loopback name, and nothing moves", async () => {
    const emulator = createEmulator();
    for (const host of [
      "evil.example:4010",
      "evil.example",
      "127.0.0.1.evil.example:4010",
      "localhost.evil.example",
    ]) {
      const res = await post(emulator, host);
      expect(res.status, host).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden" });
    }
    const journal = await emulator.app.request("http://evil.example:4010/__emulator/journal", {
      headers: { host: "evil.example:4010" },
    });
    expect(journal.status).toBe(403);
    expect(emulator.ctx.clock.offset).toBe(0);
  });

  it("answers the loopback names, with or without a port, and names added by configuration", async () => {
    const emulator = createEmulator();
    for (const host of [
      "localhost:4010",
      "127.0.0.1:4010",
      "[::1]:4010",
      "LOCALHOST",
      "127.0.0.1",
    ]) {
      expect((await post(emulator, host)).status, host).toBe(200);
    }
    const named = createEmulator({
      config: { controlHosts: ["localhost", "emulator.test"] },
    });
    expect((await post(named, "emulator.test:4010")).status).toBe(200);
    expect((await post(named, "127.0.0.1:4010")).status).toBe(403);
  });

  it("leaves the service API itself to every host name (the shop may reach it by any)", async () => {
    const emulator = createEmulator();
    const res = await emulator.app.request("http://shop-network-name:4010/core/merchants/", {
      headers: { host: "shop-network-name:4010" },
    });
    expect(res.status).toBe(401);
  });
});

describe("ids never repeat across restarts", () => {
  it("two boots without --state hand out different ids", async () => {
    const first = createEmulator();
    const second = createEmulator();
    const made = [first, second].map(
      (e) =>
        e.ctx.state.createTradeIn({
          merchant_id: "m_demo",
          session_hash: newHash(),
          value: 100,
          currency: "EUR",
        }).id,
    );
    expect(made[0]).toMatch(/^ti_[0-9a-z]{6}_000001$/);
    expect(made[1]).toMatch(/^ti_[0-9a-z]{6}_000001$/);
    expect(made[0]).not.toBe(made[1]);
    expect(first.ctx.state.nextId("wh")).not.toBe(second.ctx.state.nextId("wh"));
  });

  it("the webhook queue round-trips through a snapshot", () => {
    const first = createEmulator();
    const order = first.ctx.state.createOrder({
      merchant_id: "m_demo",
      cart_id: "cart-1",
      amount: 1000,
      currency: "EUR",
      status: "payment_completed",
      trade_in_discount: 0,
      payment: "ep1",
    });
    const sent = webhooksFor(first.ctx).notifyOrder(order);
    expect(sent.id).toMatch(new RegExp(`^wh_${first.ctx.state.idPrefix}_\\d{6}$`));
    const saved = JSON.parse(JSON.stringify(webhooksFor(first.ctx).snapshot()));
    const second = createEmulator({ idPrefix: first.ctx.state.idPrefix });
    second.ctx.state.restore(JSON.parse(JSON.stringify(first.ctx.state.snapshot())));
    webhooksFor(second.ctx).restore(saved);
    expect(
      webhooksFor(second.ctx)
        .list()
        .map((n) => n.id),
    ).toEqual([sent.id]);
    expect(second.ctx.state.nextId("wh")).not.toBe(sent.id);
  });
});

/** Starts `npm run emulator` with these arguments; resolves with its address and output. */
function start(args: string[]) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "emulator/src/main.ts", "--port", "0", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise<{ url: string; err: () => string; stop: () => Promise<string> }>(
    (resolve, reject) => {
      child.on("exit", (code) => reject(new Error(`emulator exited ${code}: ${out}${err}`)));
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const url = /service API on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) {
          child.stdout.removeAllListeners("data");
          child.removeAllListeners("exit");
          resolve({
            url,
            err: () => err,
            stop: () =>
              new Promise((done) => {
                child.on("exit", () => done(out));
                child.kill("SIGTERM");
              }),
          });
        }
      });
    },
  );
}

async function createTradeIn(url: string): Promise<string> {
  const res = await fetch(`${url}/__emulator/tradeins`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session_hash: newHash() }),
  });
  return ((await res.json()) as { tradein_item: { id: string } }).tradein_item.id;
}

describe("npm run emulator", () => {
  it("listens on 127.0.0.1 by default and warns when told to listen elsewhere", async () => {
    const local = await start([]);
    expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(local.err()).not.toContain("WARNING");
    await local.stop();
    const wide = await start(["--host", "0.0.0.0"]);
    expect(wide.err()).toMatch(/WARNING: listening on 0\.0\.0\.0/);
    await wide.stop();
  }, 30_000);

  it("answers the control API under a name given with --control-host, and no other", async () => {
    const running = await start(["--control-host", "emulator.test"]);
    const port = new URL(running.url).port;
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          { host: "127.0.0.1", port, path: "/__emulator/clock", headers: { host } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await status(`emulator.test:${port}`)).toBe(200);
    expect(await status(`localhost:${port}`)).toBe(200);
    expect(await status(`evil.example:${port}`)).toBe(403);
    await running.stop();
  }, 30_000);

  it("keeps counting ids across a restart with --state, and uses a new prefix without it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "emulator-ids-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "state.json");
    const first = await start(["--state", file]);
    const a = await createTradeIn(first.url);
    await first.stop();
    const second = await start(["--state", file]);
    const b = await createTradeIn(second.url);
    await second.stop();
    expect(a).toMatch(/^ti_[0-9a-z]{6}_000001$/);
    expect(b).toBe(a.replace(/000001$/, "000002"));
    const fresh = await start([]);
    const c = await createTradeIn(fresh.url);
    await fresh.stop();
    expect(c).not.toBe(a);
  }, 30_000);
});
