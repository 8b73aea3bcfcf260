import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cpuGroups } from "./cpu-group.mjs";

// npm test's per-step CPU and the stacks' per-part CPU (scripts/test.mjs, scripts/e2e-stacks.mjs):
// a cgroup per step counts the servers a step leaves to its children, which wait() misses.

const groups = cpuGroups(`cpu-group-test-${process.pid}`);
afterAll(() => groups?.close());

/** Node code that burns a fixed amount of work, then prints its own CPU-seconds. */
const BURN =
  "let x = 0; for (let i = 0; i < 3e7; i++) x += i; const u = process.cpuUsage(); console.log('cpu', (u.user + u.system) / 1e6)";

describe("cpuGroups", () => {
  it.skipIf(groups === null)(
    "counts the CPU of a process its command left running after it exited",
    async () => {
      const group = groups?.group("left-behind");
      if (!group) throw new Error("no group");
      // The command starts a detached child (a server left behind) and exits at once; the child
      // keeps the output pipe open, so "close" comes when the child is done.
      const leaver = `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(BURN)}], { detached: true, stdio: ["ignore", "inherit", "inherit"] }).unref()`;
      const [file, args] = group.wrap(process.execPath, ["-e", leaver]);
      const child = spawn(file, args, { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      await new Promise((resolve) => child.on("close", resolve));
      const own = Number(/cpu ([\d.]+)/.exec(out)?.[1]);
      expect(own).toBeGreaterThan(0.01);
      // The group's figure holds the left-behind child's own CPU (and the short-lived parent's).
      expect(group.seconds()).toBeGreaterThanOrEqual(own * 0.99);
    },
  );

  it.skipIf(groups === null)("leaves no group behind once closed", () => {
    const own = cpuGroups(`cpu-group-closed-${process.pid}`);
    const group = own?.group("step");
    if (!own || !group) throw new Error("no group");
    own.close();
    expect(existsSync(group.dir)).toBe(false);
    expect(existsSync(path.dirname(group.dir))).toBe(false);
  });

  it("gives no groups where no cgroup hierarchy can be written", () => {
    expect(cpuGroups("nowhere", { root: mkdtempSync(path.join(tmpdir(), "no-cgroup-")) })).toBe(
      null,
    );
  });
});
