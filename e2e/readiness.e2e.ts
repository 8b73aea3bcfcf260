import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "@playwright/test";
import { test } from "../scripts/sdk-release/sdk-coverage";
import { skipWithoutServiceFixture } from "./support/service-fixture";
import { stackCount, stackOf } from "./support/stack";

// The last step of the run (project "readiness", after every journey): the service emulator's
// go-live readiness report of merchant m_demo, which is this storefront, built from all the
// traffic of the run, plus the active webhook checks against the storefront's own receiver. The
// run is spread over one emulator per worker (./support/stack.ts): the CLI merges their reports.
// Every rule must pass or be explained in e2e/readiness-explained.json; the report is printed
// and attached. It runs the same command a merchant's CI would (emulator/README.md).

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

const EMULATORS = Array.from({ length: stackCount() }, (_, k) => stackOf(k).emulatorUrl);
const TITLE =
  "the storefront's go-live readiness report has every rule passing or explained @emulator";
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern
test(TITLE, async ({}, testInfo) => {
  // The report is the bundled emulator's (its control API): a staging service has none.
  skipWithoutServiceFixture(testInfo);
  test.setTimeout(90_000);
  const args = [
    "emulator/src/readiness/cli.ts",
    "--merchant",
    "m_demo",
    ...EMULATORS.flatMap((url) => ["--url", url]),
    "--active",
    "--strict",
    "--explain",
    "e2e/readiness-explained.json",
  ];
  const result = await run(path.join(root, "node_modules/.bin/tsx"), args, { cwd: root }).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (failed: { code?: number; stdout?: string; stderr?: string }) => ({
      code: failed.code ?? -1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    }),
  );
  console.log(result.stdout);
  await testInfo.attach("readiness-report.txt", { body: result.stdout, contentType: "text/plain" });
  // The JSON keeps the evidence entries themselves, to see why a rule failed.
  for (const [k, url] of EMULATORS.entries()) {
    const json = await fetch(`${url}/__emulator/readiness?merchant=m_demo`);
    await testInfo.attach(`readiness-report-${k + 1}.json`, {
      body: await json.text(),
      contentType: "application/json",
    });
  }
  expect(result.stderr, result.stdout).toBe("");
  expect(result.code).toBe(0);
});
