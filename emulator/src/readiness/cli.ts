// `npm run readiness -- --merchant m_demo`: prints a merchant's go-live readiness report from a
// running emulator and exits non-zero when a rule fails, so a merchant's CI can gate on it.
//
//   --merchant ID     merchant to report on (default m_demo)
//   --url URL         the emulator (default EMULATOR_URL or http://localhost:4010); repeat it
//                     for a run spread over several emulators (one per test worker): the
//                     reports are merged, a rule failing on any emulator fails
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
import { mergeReports, type ReadinessReport } from "./report";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      merchant: { type: "string", default: "m_demo" },
      url: { type: "string", multiple: true },
      active: { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      explain: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const bases = (values.url ?? [process.env.EMULATOR_URL ?? "http://localhost:4010"]).map((url) =>
    url.replace(/\/+$/, ""),
  );
  const merchant = values.merchant ?? "m_demo";
  const explained = values.explain
    ? (JSON.parse(readFileSync(values.explain, "utf8")) as Record<string, string>)
    : {};
  try {
    // Each emulator's checks at once: the active ones take a few seconds per emulator.
    const reports = await Promise.all(bases.map((base) => reportOf(base, merchant, values.active)));
    const report = mergeReports(reports);
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report, explained));
    const blocking = blockingRules(report, values.strict ?? false, explained);
    if (blocking.length > 0) {
      console.error(`\nNot ready: ${blocking.join(", ")}`);
      return 1;
    }
    console.log("\nReady: no rule fails.");
    return 0;
  } catch (error) {
    console.error(`Cannot read the readiness report: ${String(error)}`);
    return 2;
  }
}

async function reportOf(
  base: string,
  merchant: string,
  active: boolean | undefined,
): Promise<{ source: string; report: ReadinessReport }> {
  const fail = (what: string) => new Error(`${base}: ${what}`);
  if (active) {
    const res = await fetch(`${base}/__emulator/readiness/active`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ merchant_id: merchant }),
    }).catch((error) => {
      throw fail(String(error));
    });
    // Read to the end either way: an unread body keeps its connection, and this process, alive
    // until the emulator times the connection out (seconds after the report is printed).
    const answer = await res.text();
    if (!res.ok) throw fail(`active checks: ${res.status} ${answer}`);
  }
  const res = await fetch(
    `${base}/__emulator/readiness?merchant=${encodeURIComponent(merchant)}`,
  ).catch((error) => {
    throw fail(String(error));
  });
  if (!res.ok) throw fail(`${res.status} ${await res.text()}`);
  return { source: new URL(base).host, report: (await res.json()) as ReadinessReport };
}

process.exitCode = await main();
