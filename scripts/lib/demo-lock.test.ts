// `npm run demo` started twice: the second start finds the first through its lock, and only a
// live demo holds it (a lock left by a killed demo, or a pid since reused, does not).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimDemo, demoAddresses, portTaken, releaseDemo, runningDemo } from "./demo-lock.mjs";

const ADDRESSES = demoAddresses({});
const lockFile = () => path.join(mkdtempSync(path.join(tmpdir(), "demo-lock-")), "running.json");
const lockOf = (file: string) => JSON.parse(readFileSync(file, "utf8"));

let demo: ChildProcess | undefined;
afterEach(() => {
  demo?.kill("SIGKILL");
  demo = undefined;
});

/** A process that looks like a running demo to the lock (its command line names demo.mjs).
 *  Awaited until it says it runs: "spawn" can come before the child's own command line is in
 *  /proc, and the lock would then read the test runner's. */
async function fakeDemo(): Promise<number> {
  const child = spawn(
    process.execPath,
    ["-e", "process.stdout.write('running\\n'); setInterval(() => {}, 1000)", "scripts/demo.mjs"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  demo = child;
  await new Promise((running, failed) => {
    child.stdout.once("data", running);
    child.once("exit", (code) => failed(new Error(`the stand-in demo exited (${code})`)));
  });
  return child.pid as number;
}

describe("the demo's lock", () => {
  it("is claimed by the first start and refused to a second while the first runs", async () => {
    const file = lockFile();
    const pid = await fakeDemo();
    writeFileSync(file, JSON.stringify({ pid, ...ADDRESSES, startedAt: "earlier" }));
    const holder = claimDemo(ADDRESSES, file);
    expect(holder).toMatchObject({ pid, shopUrl: "http://localhost:3000" });
    expect(lockOf(file).pid).toBe(pid);
    expect(runningDemo(file)?.pid).toBe(pid);
  });

  it("is taken over from a demo that is gone (killed with SIGKILL)", () => {
    const file = lockFile();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(file, JSON.stringify({ pid: gone, ...ADDRESSES, startedAt: "earlier" }));
    expect(runningDemo(file)).toBeNull();
    expect(claimDemo(ADDRESSES, file)).toBeNull();
    expect(lockOf(file).pid).toBe(process.pid);
    releaseDemo(file);
    expect(runningDemo(file)).toBeNull();
  });

  it("is taken over from a pid now used by a process that is not a demo", () => {
    const file = lockFile();
    // This test runner: alive, but its command line names no demo.
    writeFileSync(file, JSON.stringify({ pid: process.ppid, ...ADDRESSES, startedAt: "earlier" }));
    expect(claimDemo(ADDRESSES, file)).toBeNull();
    expect(lockOf(file).pid).toBe(process.pid);
    releaseDemo(file);
  });
});

describe("the demo's addresses", () => {
  it("come from the shop's settings, never from the test servers' port overrides", () => {
    expect(
      demoAddresses({
        SHOP_BASE_URL: "http://localhost:3000",
        SERVICE_API_BASE_URL: "http://localhost:4010",
        EMULATOR_PORT: "4490",
        E2E_SHOP_PORT: "3400",
      }),
    ).toEqual({
      shopUrl: "http://localhost:3000",
      shopPort: 3000,
      emulatorUrl: "http://localhost:4010",
      emulatorPort: 4010,
    });
  });

  it("are seen taken while another program listens there", async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as { port: number };
    expect(await portTaken(port)).toBe(true);
    await new Promise((done) => server.close(done));
    expect(await portTaken(port)).toBe(false);
  });
});
