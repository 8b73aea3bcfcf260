// `npm run readiness -- --merchant m_demo`: prints a merchant's go-live readiness report from a
// running emulator and exits non-zero when a rule fails, so a merchant's CI can gate on it.
//
//   --merchant ID     merchant to report on (default m_demo)
//   --url URL         the emulator (default EMULATOR_URL or http://localhost:4010)
//   --active          run the active webhook checks first
//   --strict          a rule not yet exercised fails too, unless --explain gives a reason
//   --explain FILE    JSON { "<rule id>": "why it is not exercised in this run" }
//   --json            print the report as JSON instead of text
//
// Exit codes: 0 ready, 1 a rule fails (or, with --strict, is unexplained and not exercised),
// 2 the emulator cannot be reached or the arguments are wrong.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { blockingRules, formatReport } from "./format";
import type { ReadinessReport } from "./report";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      merchant: { type: "string", default: "m_demo" },
      url: { type: "string" },
      active: { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      explain: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const base = (values.url ?? process.env.EMULATOR_URL ?? "http://localhost:4010").replace(
    /\/+$/,
    "",
  );
  const merchant = values.merchant ?? "m_demo";
  const explained = values.explain
    ? (JSON.parse(readFileSync(values.explain, "utf8")) as Record<string, string>)
    : {};
  try {
    if (values.active) {
      const res = await fetch(`${base}/__emulator/readiness/active`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: merchant }),
      });
      if (!res.ok) throw new Error(`active checks: ${res.status} ${await res.text()}`);
    }
    const res = await fetch(
      `${base}/__emulator/readiness?merchant=${encodeURIComponent(merchant)}`,
    );
    if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
    const report = (await res.json()) as ReadinessReport;
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report, explained));
    const blocking = blockingRules(report, values.strict ?? false, explained);
    if (blocking.length > 0) {
      console.error(`\nNot ready: ${blocking.join(", ")}`);
      return 1;
    }
    console.log("\nReady: no rule fails.");
    return 0;
  } catch (error) {
    console.error(`Cannot read the readiness report from ${base}: ${String(error)}`);
    return 2;
  }
}

process.exitCode = await main();
