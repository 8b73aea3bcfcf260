import { beforeEach, describe, expect, it } from "vitest";
import { decimalLiterals } from "../src/readiness/passive";
import type { ReadinessReport, ReportRule } from "../src/readiness/report";
import { RULES } from "../src/readiness/rules";
import { MISTAKES, type MistakeId } from "../src/test-merchant/careless";
import { basic, emulatorPerFile, tokenRequest } from "./harness";

// The go-live readiness report, black box: the careless test merchant commits each mistake over
// HTTP and the report shows that rule failing with its evidence; a careful merchant passes.
// Page-markup mistakes need a browser: emulator/e2e/careless-merchant.e2e.ts.

const h = emulatorPerFile();
const TEST_CLIENT: [string, string] = ["test-client", "test-client-secret"];

beforeEach(async () => {
  await h.control("POST", "/readiness/clear", {});
  // The test merchant exists once its page was asked for (as a test would open it).
  await h.fetch("/__emulator/test-merchant/readiness/");
});

async function report(merchant = "m_test"): Promise<ReadinessReport> {
  const res = await h.fetch(`/__emulator/readiness?merchant=${merchant}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ReadinessReport;
}

function rule(r: ReadinessReport, id: string): ReportRule {
  const found = r.groups.flatMap((g) => g.rules).find((x) => x.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
}

async function commit(mistake: MistakeId) {
  const res = await h.control("POST", "/test-merchant/careless", { mistake });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function runActive(merchant = "m_test"): Promise<ReadinessReport> {
  const res = await h.control("POST", "/readiness/active", { merchant_id: merchant });
  expect(res.status).toBe(200);
  return (await res.json()) as ReadinessReport;
}

const notInBrowser = (Object.keys(MISTAKES) as MistakeId[]).filter(
  (id) => MISTAKES[id].where !== "page",
);

describe("the careless merchant fails each rule", () => {
  it.each(notInBrowser)("%s", async (id) => {
    const before = rule(await report(), id);
    expect(before.verdict).not.toBe("fail");
    await commit(id);
    const after = MISTAKES[id].where === "receiver" ? await runActive() : await report();
    const judged = rule(after, id);
    expect(judged.verdict, judged.note).toBe("fail");
    expect(judged.evidence.length).toBeGreaterThan(0);
    expect(after.ready).toBe(false);
  });

  it("has a mistake for every rule but the go-live scenarios", () => {
    const rules = RULES.map((r) => r.id).filter((id) => !id.startsWith("scenario."));
    expect(Object.keys(MISTAKES).sort()).toEqual([...rules].sort());
  });
});

describe("a careful merchant passes", () => {
  it("passes every active webhook check with the test merchant's correct receiver", async () => {
    const r = await runActive();
    const active = r.groups.flatMap((g) => g.rules).filter((x) => x.kind === "active");
    expect(active.map((x) => [x.id, x.verdict, x.note])).toEqual(
      active.map((x) => [x.id, "pass", x.note]),
    );
    expect(r.active_checks?.target_order_id).toMatch(/^ord_readiness_/);
  });

  it("passes token, path and refresh rules for a client that does them right", async () => {
    const login = await tokenRequest(
      h.url,
      { grant_type: "password", username: "test-admin", password: "test-password" },
      TEST_CLIENT,
    );
    const tokens = (await login.json()) as { access_token: string; refresh_token: string };
    expect((await h.api(tokens.access_token, "/core/merchants/")).status).toBe(200);
    h.ctx.clock.advance(61 * 60_000);
    expect((await h.api(tokens.access_token, "/core/merchants/")).status).toBe(401);
    const refreshed = await tokenRequest(
      h.url,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      TEST_CLIENT,
    );
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect((await h.api(access_token, "/core/merchants/")).status).toBe(200);
    const r = await report();
    for (const id of [
      "token.basic-auth",
      "token.reuse",
      "token.refresh-used",
      "token.refresh-on-401",
      "api.path-form",
    ]) {
      expect([id, rule(r, id).verdict]).toEqual([id, "pass"]);
    }
    expect(rule(r, "api.backoff").verdict).toBe("not_exercised");
  });

  it("keeps a failure across an emulator reset, with the journal entry as evidence", async () => {
    await commit("api.path-form");
    await h.control("POST", "/reset", {});
    const judged = rule(await report(), "api.path-form");
    expect(judged.verdict).toBe("fail");
    expect(judged.evidence[0]?.entry?.path).toBe("/core/merchants");
    // "Start over" clears it.
    await h.control("POST", "/readiness/clear", { merchant_id: "m_test" });
    await h.fetch("/__emulator/test-merchant/readiness/");
    expect(rule(await report(), "api.path-form").verdict).toBe("not_exercised");
  });

  it("links evidence to the journal entry it names", async () => {
    await commit("session.hash-form");
    const judged = rule(await report(), "session.hash-form");
    const seq = judged.evidence[0]?.seq;
    const entry = (await (await h.control("GET", `/journal/${seq}`)).json()) as { path: string };
    expect(entry.path).toMatch(/^\/core\/sessions\/[0-9A-F]{40}\/$/);
  });
});

describe("the report", () => {
  it("lists every rule once, grouped, with section and sentence", async () => {
    const r = await report("m_demo");
    const ids = r.groups.flatMap((g) => g.rules.map((x) => x.id));
    expect(ids.sort()).toEqual(RULES.map((x) => x.id).sort());
    expect(r.summary).toEqual({ pass: 0, fail: 0, not_exercised: RULES.length });
    expect(r.ready).toBe(true);
    for (const x of r.groups.flatMap((g) => g.rules)) {
      expect(x.section.length).toBeGreaterThan(5);
      expect(x.sentence.length).toBeGreaterThan(20);
    }
  });

  it("answers 404 for an unknown merchant and 400 for bad control bodies", async () => {
    expect((await h.fetch("/__emulator/readiness?merchant=m_nobody")).status).toBe(404);
    expect((await h.control("POST", "/readiness/active", { merchant_id: "m_nobody" })).status).toBe(
      404,
    );
    expect((await h.control("POST", "/readiness/declare", { merchant_id: "m_demo" })).status).toBe(
      400,
    );
    // A plain-text body is refused before it is read (the control API takes only JSON); JSON
    // that does not parse is a bad request.
    const plain = await h.fetch("/__emulator/readiness/active", { method: "POST", body: "x" });
    expect(plain.status).toBe(403);
    const badJson = await h.fetch("/__emulator/readiness/active", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x",
    });
    expect(badJson.status).toBe(400);
    expect((await h.control("POST", "/test-merchant/careless", { mistake: "nope" })).status).toBe(
      400,
    );
  });

  it("does not count a client's own token request with Basic auth as careless", async () => {
    const res = await fetch(`${h.url}/oauth2/token/`, {
      method: "POST",
      headers: {
        authorization: basic(TEST_CLIENT),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=password&username=test-admin&password=test-password",
    });
    expect(res.status).toBe(200);
    expect(rule(await report(), "token.basic-auth").verdict).toBe("pass");
  });

  it("rejects observations that are not what the SDK sends", async () => {
    const res = await h.fetch("/sdk/v1/observations", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "callback", merchant_id: "m_test" }),
    });
    expect(res.status).toBe(400);
  });
});

describe("observations are bound to the SDK start-up the emulator issued", () => {
  const merchant = "m_demo";
  const origin = () => h.ctx.state.getMerchant(merchant)?.allowed_origins[0] ?? "";
  const hash = "a".repeat(64);
  const goodShopper = {
    kind: "callback",
    callback: "shopper_data",
    status: 200,
    content_type: "application/json",
    body_text: JSON.stringify({
      customer: { id: "c1", email: "a@example.com", given_name: "A", family_name: "B" },
      session_hash_token: hash,
    }),
  };
  const goodPurchase = {
    kind: "callback",
    callback: "purchase_data",
    status: 200,
    content_type: "application/json",
    body_text: '{"purchase":null}',
  };
  const goodMarkup = {
    kind: "payment_option_markup",
    found: true,
    name: "payment_method",
    value: "service_pay",
    module_name: "servicepay",
    has_icon: true,
    info_visible: false,
    extra_visible_unselected: false,
    visible_in: null,
  };
  const JUDGED = [
    "callback.shopper-data",
    "callback.purchase-data",
    "markup.payment-option",
    "markup.info-extra-hidden",
    "session.hash-form",
    "money.integer-cents",
  ];

  const start = (headers: Record<string, string>) =>
    h.fetch("/sdk/v1/observations/session", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ merchant_id: merchant }),
    });
  async function startSdk(): Promise<string> {
    const res = await start({ origin: origin() });
    expect(res.status).toBe(201);
    return ((await res.json()) as { observation_token: string }).observation_token;
  }
  function observe(body: unknown, headers: Record<string, string>) {
    return h.fetch("/sdk/v1/observations", {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
  }
  const verdicts = async () => {
    const r = await report(merchant);
    return Object.fromEntries(JUDGED.map((id) => [id, rule(r, id).verdict]));
  };
  const json = () => ({ "content-type": "application/json", origin: origin() });

  it("refuses forged and replayed observations, journals them as refused, and keeps every verdict", async () => {
    await h.control("POST", "/reset", {});
    const token = await startSdk();
    expect(token).toMatch(/^[\w-]{20,}$/);
    let seq = 0;
    for (const body of [goodShopper, goodPurchase, goodMarkup]) {
      seq += 1;
      const res = await observe({ ...body, merchant_id: merchant, token, seq }, json());
      expect(res.status).toBe(204);
    }
    const before = await verdicts();
    expect(
      Object.values(before).every((v) => v === "pass"),
      JSON.stringify(before),
    ).toBe(true);

    const badShopper = { ...goodShopper, status: 500, body_text: "12.00 oops" };
    const badMarkup = { ...goodMarkup, name: "pay", info_visible: true };
    const badPurchase = { ...goodPurchase, status: 500 };
    const attempts: [unknown, Record<string, string>, number][] = [
      // The probe: any merchant, any Origin, text/plain, no token.
      [{ ...badShopper, merchant_id: merchant }, { "content-type": "text/plain" }, 415],
      [
        { ...badMarkup, merchant_id: merchant },
        { "content-type": "text/plain", origin: "https://evil.example" },
        415,
      ],
      [
        { ...badPurchase, merchant_id: merchant, token: "x".repeat(32), seq: 1 },
        { "content-type": "text/plain" },
        415,
      ],
      // JSON, but no token of the emulator's, or not from the merchant's origin.
      [{ ...badShopper, merchant_id: merchant, token: "x".repeat(32), seq: 9 }, json(), 403],
      [
        { ...badShopper, merchant_id: merchant, token, seq: 9 },
        { "content-type": "application/json", origin: "https://evil.example" },
        403,
      ],
      [
        { ...badShopper, merchant_id: merchant, token, seq: 9 },
        { "content-type": "application/json" },
        403,
      ],
      // Another merchant's token.
      [{ ...badShopper, merchant_id: "m_test", token, seq: 9 }, json(), 403],
      // A replay of a genuine sequence number with another body.
      [{ ...badMarkup, merchant_id: merchant, token, seq: 3 }, json(), 409],
    ];
    for (const [body, headers, status] of attempts) {
      const res = await observe(body, headers);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    // No token for another origin's page, nor for a start without an Origin.
    expect((await start({ origin: "https://evil.example" })).status).toBe(403);
    expect((await start({})).status).toBe(403);

    expect(await verdicts()).toEqual(before);
    const journal = (await (await h.control("GET", "/journal")).json()) as {
      entries: { path: string; status: number; meta?: { observation?: string } }[];
    };
    const observed = journal.entries.filter((e) => e.path === "/sdk/v1/observations");
    expect(observed.filter((e) => e.meta?.observation === "refused")).toHaveLength(attempts.length);
    expect(observed.filter((e) => e.meta?.observation === "accepted")).toHaveLength(3);

    // A genuine observation after the forged ones is still judged (here: a failing one).
    const again = await startSdk();
    const res = await observe(
      { ...badPurchase, merchant_id: merchant, token: again, seq: 1 },
      json(),
    );
    expect(res.status).toBe(204);
    expect((await verdicts())["callback.purchase-data"]).toBe("fail");
  });
});

describe("decimalLiterals", () => {
  it("finds decimal and exponent notation outside strings only", () => {
    expect(decimalLiterals('{"a":12.00,"b":"3.5","c":1e3,"d":7,"e":-0.5}')).toEqual([
      "12.00",
      "1e3",
      "-0.5",
    ]);
  });
});
