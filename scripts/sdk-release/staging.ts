// `npm run test:sdk-staging` (a step of npm test): the release suite's staging mode run for real,
// against the emulator's own SDK. An emulator started on a port of its own stands in for the
// staging service; the suite never resets it (it has no service fixture there), and the
// storefront suite runs in --no-emulator mode against it, exactly as an SDK engineer runs it
// against staging (e2e/README.md, "Without the bundled emulator"). Green means: no run error,
// no failed test, some tests ran, and the report's declarations (each contract item's
// needsEmulator, each test's @emulator tag) agree with what ran. Writes
// sdk-release-report-staging/ (the release suite's own report stays in sdk-release-report/).
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { writeReport } from "./report";
import { ROOT, runRelease } from "./run";
import { startStagingService } from "./staging-service";

const OUT = path.join(ROOT, "sdk-release-report-staging");

async function main() {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  const staging = await startStagingService(Number(process.env.STAGING_SERVICE_PORT) || undefined);
  const service = staging.url;
  try {
    // The shop's other SERVICE_* values (.env) are the emulator's seed: its merchant and
    // credentials are the staging service's here.
    process.env.SERVICE_API_BASE_URL = service;
    process.env.SHOP_BASE_URL = staging.shopUrl;
    const results = await runRelease({
      builds: [{ label: "candidate", source: `${service}/assets/v1/main.js` }],
      out: OUT,
      noEmulator: true,
    });
    const report = writeReport(OUT, results, Date.now() - started);
    console.log(`\n${report.text}`);
    console.log(`Report: ${path.relative(process.cwd(), path.join(OUT, "index.html"))}`);
    const ran = results.flatMap((r) => r.tests).filter((t) => t.outcome !== "skipped").length;
    if (!report.ok || ran === 0) {
      console.error(ran === 0 ? "The staging run ran no test." : "The staging run is not green.");
      process.exitCode = 1;
    }
  } finally {
    await staging.stop();
  }
}

await main();
