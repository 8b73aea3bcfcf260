import { describe, expect, it } from "vitest";
import {
  CANNOT_REPORT,
  NOT_READY,
  READINESS_USAGE,
  READY,
  type ReadinessIo,
  runReadiness,
} from "./command";
import type { Verdict } from "./findings";
import type { ReadinessReport } from "./report";

// The readiness command's arguments and exit codes, the same whether it runs as `npm run
// readiness` or `npx service-emulator readiness` (one implementation, command.ts): a merchant's
// CI gates on 0 ready, 1 not ready, 2 no report. The emulator is a fake `fetch` here; the
// packed tool against a real emulator is emulator/test/packed.test.ts.

function reportWith(verdicts: Record<string, Verdict>, merchant = "m_demo"): ReadinessReport {
  const rules = Object.entries(verdicts).map(([id, verdict]) => ({
    id,
    group: "g",
    kind: "passive" as const,
    section: "§",
    sentence: `rule ${id}`,
    verdict,
    note: `${id} ${verdict}`,
    evidence: [],
  }));
  const count = (v: Verdict) => rules.filter((r) => r.verdict === v).length;
  return {
    merchant_id: merchant,
    generated_at: "2026-01-01T00:00:00.000Z",
    ready: count("fail") === 0,
    summary: { pass: count("pass"), fail: count("fail"), not_exercised: count("not_exercised") },
    active_checks: null,
    groups: [{ id: "g", title: "G", rules: rules as ReadinessReport["groups"][0]["rules"] }],
  };
}

interface Call {
  method: string;
  url: string;
  body?: string;
}

/** An io whose emulators answer from `reports` by base URL (none listed: connection refused). */
function fakeIo(
  reports: Record<string, ReadinessReport | number>,
  options: { files?: Record<string, string>; env?: Record<string, string>; active?: number } = {},
) {
  const calls: Call[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const io: ReadinessIo = {
    fetch: async (input, init) => {
      const url = String(input);
      calls.push({
        method: init?.method ?? "GET",
        url,
        ...(typeof init?.body === "string" ? { body: init.body } : {}),
      });
      const base = Object.keys(reports).find((b) => url.startsWith(`${b}/`));
      if (!base) throw new TypeError("fetch failed");
      if (url.endsWith("/__emulator/readiness/active")) {
        return new Response("{}", { status: options.active ?? 200 });
      }
      const answer = reports[base];
      return typeof answer === "number"
        ? new Response("boom", { status: answer })
        : Response.json(answer);
    },
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    readFile: (file) => {
      const text = options.files?.[file];
      if (text === undefined) throw new Error(`ENOENT: ${file}`);
      return text;
    },
    env: options.env ?? {},
  };
  return { io, calls, out: () => out.join("\n"), err: () => err.join("\n") };
}

const EMULATOR = "http://127.0.0.1:4010";

describe("the readiness command", () => {
  it("exits 0 when no rule fails, printing the report, and reads EMULATOR_URL by default", async () => {
    const run = fakeIo(
      { "http://emulator.test:4999": reportWith({ a: "pass", b: "not_exercised" }) },
      { env: { EMULATOR_URL: "http://emulator.test:4999/" } },
    );
    expect(await runReadiness([], run.io)).toBe(READY);
    expect(run.calls).toEqual([
      { method: "GET", url: "http://emulator.test:4999/__emulator/readiness?merchant=m_demo" },
    ]);
    expect(run.out()).toContain("✓ pass     a: rule a");
    expect(run.out()).toContain("Ready: no rule fails.");
  });

  it("exits 1 when a rule fails, naming it", async () => {
    const run = fakeIo({ [EMULATOR]: reportWith({ a: "pass", b: "fail" }) });
    expect(await runReadiness(["--url", EMULATOR], run.io)).toBe(NOT_READY);
    expect(run.err()).toContain("Not ready: b");
  });

  it("--strict: a rule not yet exercised fails, unless --explain gives why", async () => {
    const report = reportWith({ a: "pass", b: "not_exercised", c: "not_exercised" });
    const plain = fakeIo({ [EMULATOR]: report });
    expect(await runReadiness(["--url", EMULATOR], plain.io)).toBe(READY);
    const strict = fakeIo({ [EMULATOR]: report });
    expect(await runReadiness(["--url", EMULATOR, "--strict"], strict.io)).toBe(NOT_READY);
    expect(strict.err()).toContain("Not ready: b, c");
    const files = { "explain.json": JSON.stringify({ b: "no refunds in this shop" }) };
    const partly = fakeIo({ [EMULATOR]: report }, { files });
    const args = ["--url", EMULATOR, "--strict", "--explain", "explain.json"];
    expect(await runReadiness(args, partly.io)).toBe(NOT_READY);
    expect(partly.err()).toContain("Not ready: c");
    expect(partly.out()).toContain("Explained: no refunds in this shop");
    const all = {
      "explain.json": JSON.stringify({ b: "no refunds in this shop", c: "no back office" }),
    };
    const explained = fakeIo({ [EMULATOR]: report }, { files: all });
    expect(await runReadiness(args, explained.io)).toBe(READY);
  });

  it("--active runs the active checks for the merchant first; their failure to run is exit 2", async () => {
    const run = fakeIo({ [EMULATOR]: reportWith({ a: "pass" }, "m_shop") });
    const args = ["--url", EMULATOR, "--merchant", "m_shop", "--active"];
    expect(await runReadiness(args, run.io)).toBe(READY);
    expect(run.calls).toEqual([
      {
        method: "POST",
        url: `${EMULATOR}/__emulator/readiness/active`,
        body: JSON.stringify({ merchant_id: "m_shop" }),
      },
      { method: "GET", url: `${EMULATOR}/__emulator/readiness?merchant=m_shop` },
    ]);
    const refused = fakeIo({ [EMULATOR]: reportWith({ a: "pass" }) }, { active: 404 });
    expect(await runReadiness(["--url", EMULATOR, "--active"], refused.io)).toBe(CANNOT_REPORT);
    expect(refused.err()).toContain("active checks: 404");
  });

  it("merges several --url emulators: a rule failing on any of them fails", async () => {
    const other = "http://127.0.0.1:4011";
    const run = fakeIo({
      [EMULATOR]: reportWith({ a: "pass", b: "not_exercised" }),
      [other]: reportWith({ a: "not_exercised", b: "fail" }),
    });
    expect(await runReadiness(["--url", EMULATOR, "--url", other], run.io)).toBe(NOT_READY);
    expect(run.err()).toContain("Not ready: b");
  });

  it("--json prints the report as JSON", async () => {
    const run = fakeIo({ [EMULATOR]: reportWith({ a: "pass" }) });
    expect(await runReadiness(["--url", EMULATOR, "--json"], run.io)).toBe(READY);
    const printed = JSON.parse(run.out().replace(/\n+Ready: no rule fails\.$/, "")) as {
      merchant_id: string;
    };
    expect(printed.merchant_id).toBe("m_demo");
  });

  it("exits 2 when no emulator answers, or it answers an error", async () => {
    const down = fakeIo({});
    expect(await runReadiness(["--url", EMULATOR], down.io)).toBe(CANNOT_REPORT);
    expect(down.err()).toContain(`Cannot read the readiness report: Error: ${EMULATOR}`);
    const broken = fakeIo({ [EMULATOR]: 500 });
    expect(await runReadiness(["--url", EMULATOR], broken.io)).toBe(CANNOT_REPORT);
    expect(broken.err()).toContain("500 boom");
  });

  it("exits 2 on wrong arguments, with the usage, and asks no emulator", async () => {
    for (const args of [
      ["--bogus"],
      ["--strict=yes"],
      ["stray"],
      ["--url"],
      ["--url", "ftp://127.0.0.1:4010"],
      ["--url", "not a url"],
    ]) {
      const run = fakeIo({ [EMULATOR]: reportWith({ a: "pass" }) });
      expect(await runReadiness(args, run.io), args.join(" ")).toBe(CANNOT_REPORT);
      expect(run.err(), args.join(" ")).toContain(READINESS_USAGE);
      expect(run.calls, args.join(" ")).toEqual([]);
    }
  });

  it("exits 2 when --explain is missing, not JSON or not rule id → reason, and asks no emulator", async () => {
    const files = {
      "notjson.json": "{ b: why",
      "list.json": JSON.stringify(["b"]),
      "empty-reason.json": JSON.stringify({ b: "" }),
    };
    for (const [file, why] of [
      ["missing.json", /cannot read it/],
      ["notjson.json", /not JSON/],
      ["list.json", /must be \{ "<rule id>"/],
      ["empty-reason.json", /must be \{ "<rule id>"/],
    ] as const) {
      const run = fakeIo({ [EMULATOR]: reportWith({ a: "pass" }) }, { files });
      const args = ["--url", EMULATOR, "--strict", "--explain", file];
      expect(await runReadiness(args, run.io), file).toBe(CANNOT_REPORT);
      expect(run.err(), file).toMatch(why);
      expect(run.calls, file).toEqual([]);
    }
  });

  it("--help prints the usage and exits 0", async () => {
    const run = fakeIo({});
    expect(await runReadiness(["--help"], run.io)).toBe(READY);
    expect(run.out()).toBe(READINESS_USAGE);
  });
});
