// A host of the kit under examples/ end to end, as an integrator outside this repository has it
// (scripts/minimal-shop.mjs, scripts/serverless-shop.mjs). Packs the packages it installs, copies
// the host's shipped files into a folder outside the repository (so nothing resolves from the
// repository's node_modules), installs its package.json there OFFLINE with those tarballs (`npm
// ci`, its lockfile taken from the repository's: lockfile-subset.mjs), builds it there (unless
// --no-build, which reuses the last such folder), runs its conformance test there (the kit's
// /testing from the tarball), packs the emulator and installs that tarball in
// the host's e2e/ (its journeys import `service-emulator/go-live` from there), prepares its
// database, starts both, runs the journeys in Chromium, then the readiness report with --strict
// --active from the installed tarball (`service-emulator readiness`). Exit 0 only when all passes.
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
import { quickStartOf } from "../snippets/extract.mjs";
import { lockfileFor } from "./lockfile-subset.mjs";
import { packWorkspace } from "./pack.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/** What ships of a host: not its tests, journeys, test support or Playwright and Vitest
 *  configuration (scripts/integration-figures.mjs counts the same files), nor a local build or
 *  database. */
export const shipped = (file) =>
  !/(^|\/)(node_modules|\.next|e2e|test-support)(\/|$)|\.test\.tsx?$|(playwright|vitest)\.config\.ts$|\.db(-\w+)?$|tsbuildinfo$|next-env\.d\.ts$/.test(
    file,
  );

/**
 * @param {object} host
 * @param {string} host.name            the example's folder name under examples/ (log prefix too)
 * @param {Record<string, string>} host.packages  the packages installed from their tarballs:
 *                                      name → workspace folder
 * @param {number} host.shopPort
 * @param {number} host.emulatorPort
 * @param {string} host.readyPath       a page of the shop that answers once it is up
 * @param {(ctx: { work: string, shopUrl: string, emulatorUrl: string }) => Record<string, string>} host.env
 *                                      the host's own environment (its database, secrets…)
 * @param {Record<string, string>} [host.journeyEnv] more environment for the journeys' run only
 * @param {{ tests: string[], support: string[] }} [host.conformance] the host's conformance
 *                                      test files and what they need beyond the shipped files
 *                                      (its vitest.config.ts, test support), copied into the
 *                                      installed host after its build and run there with Vitest,
 *                                      so the suite runs against the kit from its tarball
 * @param {boolean} [host.init]        the host is made with the installed kit's init: only its
 *                                      package.json and tsconfig.json (an empty Next.js app) go
 *                                      in before the install, `npx service-integration-kit init`
 *                                      runs there, then the host's own files are laid over what
 *                                      it wrote (its routes, hook and job routes are init's)
 * @param {string} [host.quickStart]   a doc whose quick start (its `file=PATH` and `run=PHASE`
 *                                      blocks, scripts/snippets/extract.mjs) the host is made of:
 *                                      after init and the host's own files, each file is written
 *                                      from the doc as it reads now (a host file of the same path
 *                                      is refused), its `build` commands run before `next build`
 *                                      and its `deploy` commands before the shop starts
 * @param {(ctx: { app: string, manifest: object, run: Function }) => void} [host.beforeInstall]
 *                                      in the installed folder before `npm ci` (a local prebuild)
 * @param {(ctx: { appShop: string, run: Function, env: Record<string, string> }) => Promise<void> | void} [host.beforeStart]
 *                                      after the build, before the shop starts (its migrations)
 */
export async function runExampleHost(host) {
  const log = (line) => console.log(`[${host.name}] ${line}`);
  const shopDir = path.join(root, "examples", host.name);
  const packedDir = path.join(shopDir, "e2e");
  // The installed host: outside the repository, one folder per checkout (--no-build reuses it).
  const app = path.join(
    tmpdir(),
    `${host.name}-${createHash("sha256").update(root).digest("hex").slice(0, 8)}`,
  );
  const appShop = path.join(app, "shop");
  const nextBin = path.join(appShop, "node_modules/next/dist/bin/next");
  const shopUrl = `http://localhost:${host.shopPort}`;
  const emulatorUrl = `http://localhost:${host.emulatorPort}`;
  const work = mkdtempSync(path.join(tmpdir(), `${host.name}-`));
  const started = [];

  const env = {
    ...process.env,
    NODE_ENV: "production",
    // Offline: Next's build would otherwise try to send its anonymous telemetry.
    NEXT_TELEMETRY_DISABLED: "1",
    EMULATOR_URL: emulatorUrl,
    SERVICE_API_BASE_URL: emulatorUrl,
    SERVICE_ASSETS_URL: `${emulatorUrl}/assets`,
    SERVICE_CLIENT_ID: "demo-client",
    SERVICE_CLIENT_SECRET: "demo-client-secret",
    SERVICE_USERNAME: "merchant-admin",
    SERVICE_PASSWORD: "merchant-password",
    SERVICE_TOKEN_KEY: `${host.name}-test-token-key-0123456789abcdef`,
    SERVICE_MERCHANT_ID: "m_demo",
    SERVICE_PRODUCTS: "valuations+ep1",
    SERVICE_ORDER_CREATION: "ready_to_place_order",
    ...host.env({ work, shopUrl, emulatorUrl }),
  };

  function run(command, args, options = {}) {
    const result = spawnSync(command, args, { stdio: "inherit", env, cwd: root, ...options });
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(" ")} exited ${result.status}`);
  }

  /** Runs `fn`, then prints how long it took (the step's time is in npm test's budget). */
  function timed(what, fn) {
    const t = Date.now();
    const result = fn();
    log(`${what} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return result;
  }

  /** The host installed from the tarballs in `app`, and built there. */
  function install() {
    rmSync(app, { recursive: true, force: true });
    const packs = path.join(app, "packs");
    mkdirSync(packs, { recursive: true });
    // With init, the empty Next.js app it runs in: the host's package.json and tsconfig.json
    // (where init finds the ORM and the path alias) and an app/ folder.
    const emptyApp = new Set(["", "package.json", "tsconfig.json"]);
    cpSync(shopDir, appShop, {
      recursive: true,
      filter: (from) => {
        const file = path.relative(shopDir, from);
        return shipped(file) && (!host.init || emptyApp.has(file));
      },
    });
    if (host.init) mkdirSync(path.join(appShop, "app"));
    // The host's package.json names the packages' versions, as from a registry; here each is its
    // tarball, packed from this checkout.
    const manifest = JSON.parse(readFileSync(path.join(appShop, "package.json"), "utf8"));
    const local = {};
    for (const [name, dir] of Object.entries(host.packages)) {
      const { tarball } = timed(`packed ${name}`, () => packWorkspace(name, packs));
      const own = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
      if (own.version !== manifest.dependencies[name])
        throw new Error(
          `the host pins ${name} ${manifest.dependencies[name]}, the package is ${own.version}`,
        );
      manifest.dependencies[name] = `file:../packs/${path.basename(tarball)}`;
      local[name] = { resolved: manifest.dependencies[name], manifest: own };
    }
    const rootLock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
    writeFileSync(path.join(appShop, "package.json"), JSON.stringify(manifest, null, 2));
    writeFileSync(
      path.join(appShop, "package-lock.json"),
      JSON.stringify(lockfileFor(rootLock, manifest, local), null, 2),
    );
    host.beforeInstall?.({ app, manifest, run });
    timed("installed offline (npm ci)", () =>
      run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], {
        cwd: appShop,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...env, NODE_ENV: "development" },
      }),
    );
    if (host.init) {
      // The installed kit's bin, as an integrator runs it in their app (no terminal: it asks
      // nothing, and an existing file would be skipped and reported).
      timed("made by the installed kit (npx service-integration-kit init)", () =>
        run("npx", ["--offline", "service-integration-kit", "init"], {
          cwd: appShop,
          stdio: ["ignore", "inherit", "inherit"],
        }),
      );
      // The host's own files over init's (its callbacks and wiring instead of init's TODOs); its
      // package.json stays the one installed (the tarballs' paths).
      cpSync(shopDir, appShop, {
        recursive: true,
        filter: (from) => {
          const file = path.relative(shopDir, from);
          return shipped(file) && file !== "package.json";
        },
      });
    }
    if (host.quickStart) {
      const { files } = quickStartOf(root, host.quickStart);
      for (const file of files) {
        if (existsSync(path.join(shopDir, file.path)))
          throw new Error(
            `${file.path} is both the quick start's (${host.quickStart}:${file.line}) and examples/${host.name}'s: keep one`,
          );
        mkdirSync(path.dirname(path.join(appShop, file.path)), { recursive: true });
        writeFileSync(path.join(appShop, file.path), file.text);
      }
      log(`wrote the quick start's ${files.length} files from ${host.quickStart}`);
      quickStartCommands("build");
    }
    timed("built (next build)", () => run(process.execPath, [nextBin, "build"], { cwd: appShop }));
  }

  /** The quick start's commands of `phase`, as its doc gives them, in the installed host. */
  function quickStartCommands(phase) {
    const commands = quickStartOf(root, host.quickStart).runs[phase] ?? [];
    if (commands.length === 0) throw new Error(`${host.quickStart} gives no run=${phase} commands`);
    for (const command of commands)
      timed(`${phase}: ${command}`, () => run("sh", ["-ec", command], { cwd: appShop }));
  }

  /** The host's conformance test in the installed host: the kit's /testing and /testing/config
   *  from the tarball, as an integrator's own `vitest run` has them (after the build, so the
   *  test files stay out of what next build compiles). */
  function conformance({ tests, support }) {
    for (const file of [...tests, ...support])
      cpSync(path.join(shopDir, file), path.join(appShop, file), { recursive: true });
    const vitest = path.join(appShop, "node_modules/vitest/vitest.mjs");
    timed("conformance suite from the installed kit (vitest run)", () =>
      run(process.execPath, [vitest, "run", ...tests], {
        cwd: appShop,
        env: { ...env, NODE_ENV: "test" },
      }),
    );
  }

  let stopping = false;
  function start(name, command, args, options) {
    const child = spawn(command, args, {
      env,
      stdio: ["ignore", "inherit", "inherit"],
      ...options,
    });
    started.push(child);
    child.on("exit", (code, signal) => {
      if (!stopping) console.error(`[${host.name}] ${name} exited early (${code ?? signal})`);
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

  let status = 1;
  const t0 = Date.now();
  try {
    if (!process.argv.includes("--no-build")) install();
    else if (!existsSync(path.join(appShop, ".next")))
      throw new Error(`no build in ${app}: run without --no-build`);
    if (host.conformance) conformance(host.conformance);
    const afterBuild = Date.now();
    if (host.quickStart) quickStartCommands("deploy");
    await host.beforeStart?.({ appShop, run, env });
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
    start("emulator", emulatorBin, ["--port", String(host.emulatorPort), "--shop-url", shopUrl], {
      cwd: work,
    });
    start("shop", process.execPath, [nextBin, "start", "-p", String(host.shopPort)], {
      cwd: appShop,
    });
    await Promise.all([
      whenUp(`${emulatorUrl}/__emulator/health`),
      whenUp(`${shopUrl}${host.readyPath}`),
    ]);
    run("npx", ["playwright", "test", "-c", `examples/${host.name}/playwright.config.ts`], {
      env: { ...env, ...host.journeyEnv },
    });
    // The readiness report from the installed tarball, as an integrator of any stack runs it
    // (emulator/README.md, "Run it from the tarball"): the same command as `npm run readiness`.
    run(
      emulatorBin,
      ["readiness", "--merchant", "m_demo", "--strict", "--active", "--url", emulatorUrl],
      { cwd: work },
    );
    log(
      `passed: ${((Date.now() - afterBuild) / 1000).toFixed(1)} s after the build, ${((Date.now() - t0) / 1000).toFixed(1)} s in all`,
    );
    status = 0;
  } catch (error) {
    console.error(`[${host.name}] ${error.message}`);
  } finally {
    stopping = true;
    for (const child of started) child.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
    // The installed host is one folder per checkout, kept for --no-build. A CI checkout is thrown
    // away after its run, so its folder would only pile up in the machine's temp (0.7 GB each).
    if (process.env.CI) rmSync(app, { recursive: true, force: true });
  }
  return status;
}
