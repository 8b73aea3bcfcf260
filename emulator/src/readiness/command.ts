// The readiness report's command: prints a merchant's go-live readiness report from a running
// emulator and exits non-zero when a rule fails, so a merchant's CI can gate on it. One
// implementation for both ways of running it: `npm run readiness -- …` in this repository
// (cli.ts) and `npx service-emulator readiness …` from the emulator's tarball (bin.ts).
//
//   --merchant ID     merchant to report on (default m_demo)
//   --url URL         the emulator (default EMULATOR_URL or http://localhost:4010); repeat it
//                     for a run spread over several emulators (one per test worker): the
//                     reports are merged, a rule failing on any emulator fails
//   --active          run the active webhook checks first
//   --strict          a rule not yet exercised fails too, unless --explain gives a reason
//   --explain FILE    JSON { "<rule id>": "why it is not exercised in this run" }
//   --json            print the report as JSON instead of text
//   --help            print this usage
//
// Exit codes: 0 ready, 1 a rule fails (or, with --strict, is unexplained and not exercised),
// 2 the emulator cannot be reached or the arguments are wrong.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { blockingRules, formatReport } from "./format";
import { mergeReports, type ReadinessReport } from "./report";

export const READINESS_USAGE = `Usage: service-emulator readiness [--merchant ID] [--url URL …] [--active] [--strict]
                                 [--explain FILE] [--json]

  --merchant ID     merchant to report on (default m_demo)
  --url URL         the emulator (default EMULATOR_URL or http://localhost:4010); repeat it for a
                    run spread over several emulators: a rule failing on any of them fails
  --active          run the active webhook checks first
  --strict          a rule not yet exercised fails too, unless --explain gives a reason
  --explain FILE    JSON { "<rule id>": "why it is not exercised in this run" }
  --json            print the report as JSON instead of text

Exit codes: 0 ready, 1 a rule fails (or, with --strict, is unexplained and not exercised),
2 the emulator cannot be reached or the arguments are wrong.`;

/** Exit codes (the header above): what a merchant's CI gates on. */
export const READY = 0;
export const NOT_READY = 1;
export const CANNOT_REPORT = 2;

/** What the command reaches outside itself; tests give their own. */
export interface ReadinessIo {
  fetch: typeof fetch;
  out: (text: string) => void;
  err: (text: string) => void;
  readFile: (file: string) => string;
  env: Record<string, string | undefined>;
}

const defaultIo: ReadinessIo = {
  fetch: (input, init) => fetch(input, init),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  readFile: (file) => readFileSync(file, "utf8"),
  env: process.env,
};

/** --explain's file: rule id → why it is not exercised in this run (bounded: it is read whole). */
const explainSchema = z.record(z.string().min(1).max(200), z.string().min(1).max(2000));
const MAX_EXPLAIN_BYTES = 256 * 1024;

/** Runs the command with `args` (what follows `readiness` on the command line); the exit code. */
export async function runReadiness(
  args: readonly string[],
  io: ReadinessIo = defaultIo,
): Promise<number> {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(args).values;
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${READINESS_USAGE}`);
    return CANNOT_REPORT;
  }
  if (values.help) {
    io.out(READINESS_USAGE);
    return READY;
  }
  const urls = values.url ?? [io.env.EMULATOR_URL ?? "http://localhost:4010"];
  const bases: string[] = [];
  for (const url of urls) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      io.err(`--url ${url}: not an http(s) address\n\n${READINESS_USAGE}`);
      return CANNOT_REPORT;
    }
    bases.push(url.replace(/\/+$/, ""));
  }
  const merchant = values.merchant ?? "m_demo";
  let explained: Record<string, string> = {};
  if (values.explain) {
    const read = readExplain(values.explain, io);
    if (!read.ok) {
      io.err(read.error);
      return CANNOT_REPORT;
    }
    explained = read.value;
  }
  try {
    // Each emulator's checks at once: the active ones take a few seconds per emulator.
    const reports = await Promise.all(
      bases.map((base) => reportOf(io, base, merchant, values.active ?? false)),
    );
    const report = mergeReports(reports);
    io.out(values.json ? JSON.stringify(report, null, 2) : formatReport(report, explained));
    const blocking = blockingRules(report, values.strict ?? false, explained);
    if (blocking.length > 0) {
      io.err(`\nNot ready: ${blocking.join(", ")}`);
      return NOT_READY;
    }
    io.out("\nReady: no rule fails.");
    return READY;
  } catch (error) {
    io.err(`Cannot read the readiness report: ${String(error)}`);
    return CANNOT_REPORT;
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      merchant: { type: "string" },
      url: { type: "string", multiple: true },
      active: { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      explain: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
}

function readExplain(
  file: string,
  io: ReadinessIo,
): { ok: true; value: Record<string, string> } | { ok: false; error: string } {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (error) {
    return { ok: false, error: `--explain ${file}: cannot read it (${String(error)})` };
  }
  if (text.length > MAX_EXPLAIN_BYTES) {
    return { ok: false, error: `--explain ${file}: over ${MAX_EXPLAIN_BYTES} bytes` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `--explain ${file}: not JSON (${String(error)})` };
  }
  const parsed = explainSchema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : {
        ok: false,
        error: `--explain ${file}: must be { "<rule id>": "why it is not exercised" } (${parsed.error.issues[0]?.message ?? "invalid"})`,
      };
}

async function reportOf(
  io: ReadinessIo,
  base: string,
  merchant: string,
  active: boolean,
): Promise<{ source: string; report: ReadinessReport }> {
  const fail = (what: string) => new Error(`${base}: ${what}`);
  if (active) {
    const res = await io
      .fetch(`${base}/__emulator/readiness/active`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: merchant }),
      })
      .catch((error) => {
        throw fail(String(error));
      });
    // Read to the end either way: an unread body keeps its connection, and this process, alive
    // until the emulator times the connection out (seconds after the report is printed).
    const answer = await res.text();
    if (!res.ok) throw fail(`active checks: ${res.status} ${answer}`);
  }
  const res = await io
    .fetch(`${base}/__emulator/readiness?merchant=${encodeURIComponent(merchant)}`)
    .catch((error) => {
      throw fail(String(error));
    });
  if (!res.ok) throw fail(`${res.status} ${await res.text()}`);
  return { source: new URL(base).host, report: (await res.json()) as ReadinessReport };
}
