#!/usr/bin/env node
// npm run test:minimal-shop: the second host (examples/minimal-shop) end to end. Builds it
// (unless --no-build), packs the emulator and installs the tarball in examples/minimal-shop/e2e
// (its journeys import `service-emulator/go-live` from there), starts both (shop on 5510,
// emulator on 5520, ports 5500-5599), runs the journeys (go-live scenarios 1-3 and the shop's
// own) in Chromium, then the readiness report with --strict --active from the installed tarball
// (`service-emulator readiness`). Exit 0 only when all of it passes.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const shopDir = path.join(root, "examples/minimal-shop");
const packedDir = path.join(shopDir, "e2e");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const SHOP_PORT = 5510;
const EMULATOR_PORT = 5520;
const shopUrl = `http://localhost:${SHOP_PORT}`;
const emulatorUrl = `http://localhost:${EMULATOR_PORT}`;
const work = mkdtempSync(path.join(tmpdir(), "minimal-shop-"));
const started = [];

const env = {
  ...process.env,
  NODE_ENV: "production",
  MINI_SHOP_URL: shopUrl,
  MINI_DATABASE_FILE: path.join(work, "shop.db"),
  MINI_SESSION_SECRET: "minimal-shop-test-session-secret-0123456789",
  MINI_CUSTOMER_PASSWORD: "correct horse battery staple",
  EMULATOR_URL: emulatorUrl,
  SERVICE_API_BASE_URL: emulatorUrl,
  SERVICE_ASSETS_URL: `${emulatorUrl}/assets`,
  SERVICE_CLIENT_ID: "demo-client",
  SERVICE_CLIENT_SECRET: "demo-client-secret",
  SERVICE_USERNAME: "merchant-admin",
  SERVICE_PASSWORD: "merchant-password",
  SERVICE_TOKEN_KEY: "minimal-shop-test-token-key-0123456789abcdef",
  SERVICE_MERCHANT_ID: "m_demo",
  SERVICE_PRODUCTS: "valuations+ep1",
  SERVICE_ORDER_CREATION: "ready_to_place_order",
};

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env, cwd: root, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}`);
}

function start(name, command, args, options) {
  const child = spawn(command, args, { env, stdio: ["ignore", "inherit", "inherit"], ...options });
  started.push(child);
  child.on("exit", (code, signal) => {
    if (!stopping) console.error(`[minimal-shop] ${name} exited early (${code ?? signal})`);
  });
  return child;
}

/** Polls `url` until it answers (each try waits for the answer; a refused connection retries). */
async function whenUp(url, deadline = Date.now() + 30_000) {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let stopping = false;
let status = 1;
const t0 = Date.now();
try {
  if (!process.argv.includes("--no-build"))
    run(process.execPath, [nextBin, "build"], { cwd: shopDir });
  const afterBuild = Date.now();
  run("node", ["emulator/scripts/pack.mjs"], { stdio: ["ignore", "ignore", "inherit"] });
  // Where the journeys resolve it (and @playwright/test, its peer, from the root), fresh each run.
  rmSync(path.join(packedDir, "node_modules"), { recursive: true, force: true });
  run(
    "npm",
    [
      "install",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--no-package-lock",
      "--prefix",
      packedDir,
      path.join(root, ".emulator-pack/service-emulator-0.1.0.tgz"),
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const emulatorBin = path.join(packedDir, "node_modules/.bin/service-emulator");
  start("emulator", emulatorBin, ["--port", String(EMULATOR_PORT), "--shop-url", shopUrl], {
    cwd: work,
  });
  start("shop", process.execPath, [nextBin, "start", "-p", String(SHOP_PORT)], { cwd: shopDir });
  await Promise.all([whenUp(`${emulatorUrl}/__emulator/health`), whenUp(`${shopUrl}/login`)]);
  run("npx", ["playwright", "test", "-c", "examples/minimal-shop/playwright.config.ts"]);
  // The readiness report from the installed tarball, as an integrator of any stack runs it
  // (emulator/README.md, "Run it from the tarball"): the same command as `npm run readiness`.
  run(
    emulatorBin,
    ["readiness", "--merchant", "m_demo", "--strict", "--active", "--url", emulatorUrl],
    { cwd: work },
  );
  console.log(
    `[minimal-shop] passed: ${((Date.now() - afterBuild) / 1000).toFixed(1)} s after the build, ${((Date.now() - t0) / 1000).toFixed(1)} s in all`,
  );
  status = 0;
} catch (error) {
  console.error(`[minimal-shop] ${error.message}`);
} finally {
  stopping = true;
  for (const child of started) child.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
