#!/usr/bin/env node
// npm run test:minimal-shop: the second host (examples/minimal-shop) end to end, as an integrator
// outside this repository has it. Packs the kit and the Drizzle adapter, copies the shop's shipped
// files into a folder outside the repository (so nothing resolves from the repository's
// node_modules), installs its package.json there OFFLINE with the two tarballs (`npm ci`, its
// lockfile taken from the repository's: scripts/lib/lockfile-subset.mjs), builds it there (unless
// --no-build, which reuses the last such folder), packs the emulator and installs that tarball in
// examples/minimal-shop/e2e (its journeys import `service-emulator/go-live` from there), starts
// both (shop on 5510, emulator on 5520, ports 5500-5599), runs the journeys (go-live scenarios 1-3
// and the shop's own) in Chromium, then the readiness report with --strict --active from the
// installed tarball (`service-emulator readiness`). Exit 0 only when all of it passes.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lockfileFor } from "./lib/lockfile-subset.mjs";
import { packWorkspace } from "./lib/pack.mjs";

const root = path.resolve(import.meta.dirname, "..");
const shopDir = path.join(root, "examples/minimal-shop");
const packedDir = path.join(shopDir, "e2e");
// The installed shop: outside the repository, one folder per checkout (--no-build reuses it).
const app = path.join(
  tmpdir(),
  `minimal-shop-${createHash("sha256").update(root).digest("hex").slice(0, 8)}`,
);
const appShop = path.join(app, "shop");
const nextBin = path.join(appShop, "node_modules/next/dist/bin/next");
/** The packages the shop installs from their tarballs: name → workspace folder. */
const PACKAGES = {
  "@service-integration/kit": "packages/kit",
  "@service-integration/drizzle-adapter": "packages/drizzle-adapter",
};
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
  // Offline: Next's build would otherwise try to send its anonymous telemetry.
  NEXT_TELEMETRY_DISABLED: "1",
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

/** What ships of the shop: not its tests, journeys, test support or Playwright configuration
 *  (scripts/integration-figures.mjs counts the same files), nor a local build or database. */
const shipped = (file) =>
  !/(^|\/)(node_modules|\.next|e2e|test-support)(\/|$)|\.test\.tsx?$|playwright\.config\.ts$|\.db(-\w+)?$|tsbuildinfo$|next-env\.d\.ts$/.test(
    file,
  );

/** Runs `fn`, then prints how long it took (the step's time is in npm test's budget). */
function timed(what, fn) {
  const t = Date.now();
  const result = fn();
  console.log(`[minimal-shop] ${what} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return result;
}

/** The shop installed from the tarballs in `app`, and built there. */
function install() {
  rmSync(app, { recursive: true, force: true });
  const packs = path.join(app, "packs");
  const into = appShop;
  mkdirSync(packs, { recursive: true });
  cpSync(shopDir, into, {
    recursive: true,
    filter: (from) => shipped(path.relative(shopDir, from)),
  });
  // The shop's package.json names the packages' versions, as from a registry; here each is its
  // tarball, packed from this checkout.
  const manifest = JSON.parse(readFileSync(path.join(into, "package.json"), "utf8"));
  const local = {};
  for (const [name, dir] of Object.entries(PACKAGES)) {
    const { tarball } = timed(`packed ${name}`, () => packWorkspace(name, packs));
    const own = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
    if (own.version !== manifest.dependencies[name])
      throw new Error(
        `the shop pins ${name} ${manifest.dependencies[name]}, the package is ${own.version}`,
      );
    manifest.dependencies[name] = `file:../packs/${path.basename(tarball)}`;
    local[name] = { resolved: manifest.dependencies[name], manifest: own };
  }
  const rootLock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  writeFileSync(path.join(into, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(
    path.join(into, "package-lock.json"),
    JSON.stringify(lockfileFor(rootLock, manifest, local), null, 2),
  );
  // better-sqlite3's prebuilt binary is a download (unreachable offline), so its install script
  // compiles it (measured on one shared core: the install took 279 s so, 27 s without). The
  // binary this checkout's own install made of the same version is handed to its prebuild-install
  // as a local prebuild instead (an rc file in a parent of the package's folder: an environment
  // variable named with a "-" does not survive the install script's shell).
  const ownSqlite = path.join(root, "node_modules/better-sqlite3");
  const prebuilds = path.join(app, "prebuilds");
  const version = JSON.parse(readFileSync(path.join(ownSqlite, "package.json"), "utf8")).version;
  if (version === manifest.dependencies["better-sqlite3"]) {
    mkdirSync(prebuilds);
    const { modules } = process.versions;
    const name = `better-sqlite3-v${version}-node-v${modules}-${process.platform}-${process.arch}.tar.gz`;
    const binary = "build/Release/better_sqlite3.node";
    run("tar", ["-czf", path.join(prebuilds, name), "-C", ownSqlite, binary]);
    writeFileSync(
      path.join(app, ".prebuild-installrc"),
      JSON.stringify({ "local-prebuilds": prebuilds }),
    );
  }
  timed("installed offline (npm ci)", () =>
    run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], {
      cwd: into,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...env, NODE_ENV: "development" },
    }),
  );
  timed("built (next build)", () => run(process.execPath, [nextBin, "build"], { cwd: into }));
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
  if (!process.argv.includes("--no-build")) install();
  else if (!existsSync(path.join(appShop, ".next")))
    throw new Error(`no build in ${app}: run without --no-build`);
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
  start("shop", process.execPath, [nextBin, "start", "-p", String(SHOP_PORT)], { cwd: appShop });
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
