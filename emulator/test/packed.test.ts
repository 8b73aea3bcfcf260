import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, type PackedEmulator, packEmulator, startPacked } from "../scripts/pack.mjs";
import { buildSdk } from "../src/assets/build-sdk";
import { ALL_SCOPES, basic, DEMO_CLIENT } from "./harness";

// The emulator as integrators get it: `npm run emulator:pack`'s tarball, installed into an empty
// folder with no network, started from node_modules/.bin — no TypeScript, no esbuild, no
// dependency of this repository (emulator/README.md, "Run it from the tarball").

let dir: string;
let tgz: string;
let bin: string;
const running = new Set<PackedEmulator>();

// One build, one npm pack: bounded work that took up to 9 s beside the browser suites in a
// two-core gate run; the limit is three times a loaded core's measure, not the default 10 s.
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "service-emulator-"));
  tgz = await packEmulator();
}, 30_000);
beforeAll(() => {
  bin = installPacked(tgz, dir);
});
afterAll(async () => {
  await Promise.all([...running].map((e) => e.stop()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(...args: string[]): Promise<PackedEmulator> {
  const emulator = await startPacked(bin, ["--port", "0", ...args], { cwd: dir });
  running.add(emulator);
  return emulator;
}

async function stop(emulator: PackedEmulator): Promise<number | null> {
  running.delete(emulator);
  return emulator.stop();
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/oauth2/token/`, {
    method: "POST",
    headers: {
      authorization: basic(DEMO_CLIENT),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "password",
      username: "merchant-admin",
      password: "merchant-password",
      scope: ALL_SCOPES,
    }).toString(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("the packed emulator", () => {
  it("installs as one package with no dependencies", async () => {
    const installed = (await readdir(path.join(dir, "node_modules"))).filter(
      (name) => !name.startsWith("."),
    );
    expect(installed).toEqual(["service-emulator"]);
    const manifest = JSON.parse(
      await readFile(path.join(dir, "node_modules/service-emulator/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: "service-emulator", version: "0.1.0" });
    expect(manifest.dependencies).toBeUndefined();
  });

  it("ships the go-live journeys as service-emulator/go-live, Playwright left to the integrator", async () => {
    // Resolved as an integrator's test file in that folder resolves it (the package's exports).
    const resolve = createRequire(path.join(dir, "go-live.spec.js")).resolve;
    const entry = resolve("service-emulator/go-live");
    expect(path.relative(dir, entry)).toBe("node_modules/service-emulator/dist/go-live/index.js");
    const types = await readFile(entry.replace(/index\.js$/, "journeys.d.ts"), "utf8");
    expect(types).toContain(
      "export declare function defineGoLiveJourneys(options: GoLiveOptions): void;",
    );
    // The optional peer: not installed with the tool, never bundled into it.
    expect(() => resolve("@playwright/test")).toThrow();
    const code = await readFile(entry, "utf8");
    expect(code).toMatch(/from "@playwright\/test"/);
    // esbuild names each bundled module's path in a comment: none of Playwright's.
    expect(code).toContain("node_modules/zod/");
    expect(code).not.toMatch(/node_modules\/@?playwright/);
  });

  it("starts healthy, serves the OAuth token and an authenticated API call, keeps its state through --export and --import", async () => {
    const snapshot = path.join(dir, "snapshot.json");
    const first = await start("--export", snapshot);
    const health = await fetch(`${first.url}/__emulator/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });

    const bearer = await token(first.url);
    const merchants = await fetch(`${first.url}/core/merchants/`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(merchants.status).toBe(200);
    expect(await merchants.json()).toMatchObject({ merchants: [{ id: "m_demo" }] });

    const created = await fetch(`${first.url}/__emulator/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cart_id: "cart-packed", amount: 4200 }),
    });
    expect(created.status).toBe(201);
    expect(await stop(first)).toBe(0);
    expect(existsSync(snapshot)).toBe(true);

    const second = await start("--import", snapshot);
    const orders = await fetch(`${second.url}/payments/orders/`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(orders.status).toBe(200);
    expect(await orders.json()).toMatchObject({
      orders: [{ cart_id: "cart-packed", amount: 4200 }],
    });
    expect(await stop(second)).toBe(0);
  });

  it("serves the same browser SDK the source tree builds, prebuilt", async () => {
    const emulator = await start();
    const served = await fetch(`${emulator.url}/__emulator/sdk`);
    expect(await served.json()).toMatchObject({
      source: "built-in",
      sha256: (await buildSdk()).sha256,
    });
    const script = await fetch(`${emulator.url}/assets/v1/main.js`);
    expect(script.status).toBe(200);
    expect(await stop(emulator)).toBe(0);
  });

  it("refuses a file that is not a snapshot: exit 2, never a start from the seed", async () => {
    const bad = path.join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ state: 1 }));
    await expect(start("--import", bad)).rejects.toThrow(
      /exited with 2[\s\S]*not a valid snapshot/,
    );
  });

  it("runs the readiness report as `service-emulator readiness`, with its exit codes", async () => {
    // Its arguments and every exit code are command.test.ts's (the same command.ts); here the
    // three codes from the installed bin against a fresh emulator: nothing exercised, none fails.
    const emulator = await start();
    const [fresh, strict, wrong] = await Promise.all([
      runPacked(["readiness", "--url", emulator.url]),
      runPacked(["readiness", "--url", emulator.url, "--strict"]),
      runPacked(["readiness", "--url", emulator.url, "--stricter"]),
    ]);
    expect(fresh.code, fresh.output).toBe(0);
    expect(fresh.output).toContain("Go-live readiness of m_demo");
    expect(fresh.output).toContain("Ready: no rule fails.");
    const report = (await (await fetch(`${emulator.url}/__emulator/readiness`)).json()) as {
      groups: { rules: { id: string; verdict: string }[] }[];
    };
    const unexercised = report.groups
      .flatMap((g) => g.rules)
      .filter((r) => r.verdict === "not_exercised")
      .map((r) => r.id);
    expect(unexercised.length).toBeGreaterThan(0);
    expect(strict.code, strict.output).toBe(1);
    expect(strict.output).toContain(`Not ready: ${unexercised.join(", ")}`);
    expect(wrong.code, wrong.output).toBe(2);
    expect(wrong.output).toContain("Usage: service-emulator readiness");
    expect(await stop(emulator)).toBe(0);
  });
});

/** Runs the installed tool to its end: its exit code and everything it printed. */
function runPacked(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}
