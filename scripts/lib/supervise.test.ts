import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { supervise } from "./supervise.mjs";

// `npm run demo`: when one process dies the other keeps serving, the demo says what died and
// how to start it by hand, and restarts it.

type Supervisor = {
  running: Map<string, { pid: number; kill: (signal?: string) => boolean }>;
  stop: () => Promise<unknown>;
};

const idle = (name: string) => ({
  name,
  command: process.execPath,
  args: ["-e", `console.log("${name} up"); setInterval(() => {}, 1000)`],
  manual: `npm run ${name}`,
});

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let current: Supervisor | undefined;
afterEach(async () => {
  await current?.stop();
});

describe("demo supervisor", () => {
  it("keeps the other process serving, says what died and restarts it", async () => {
    const lines: string[] = [];
    current = supervise([idle("emulator"), idle("storefront")], {
      cwd: process.cwd(),
      log: (line: string) => lines.push(line),
      firstDelayMs: 50,
      exitOnSignal: false,
    }) as Supervisor;
    const sup = current;
    await until(() => lines.filter((l) => l.endsWith(" up")).length === 2, "both processes");
    const shop = sup.running.get("storefront")?.pid;
    const emulator = sup.running.get("emulator");
    emulator?.kill("SIGKILL");
    await until(() => lines.some((l) => l.includes("DIED")), "the death notice");
    const notice = lines.find((l) => l.includes("DIED")) ?? "";
    expect(notice).toMatch(/^\[emulator\s*\] DIED \(SIGKILL\)\. storefront keeps running\./);
    expect(notice).toContain("To start it by hand: npm run emulator");
    expect(sup.running.get("storefront")?.pid).toBe(shop);
    await until(
      () => lines.filter((l) => l.includes("emulator") && l.endsWith(" up")).length === 2,
      "the restart",
    );
    expect(sup.running.get("emulator")?.pid).not.toBe(emulator?.pid);
    expect(sup.running.get("storefront")?.pid).toBe(shop);
  });
});
