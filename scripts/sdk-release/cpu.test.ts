import { describe, expect, it } from "vitest";
import { machineCpuSeconds, parseProcStat, treeCpuMeter, treeOf } from "./cpu";
import { suiteTimes } from "./report";

// A /proc/<pid>/stat line whose command name holds a space and a parenthesis.
const STAT =
  "4242 (Web Content) x) S 4200 4242 4200 0 -1 4194560 100 0 0 0 250 37 0 0 20 0 12 0 98765 1000000 500 18446744073709551615";

describe("the release report's CPU-seconds", () => {
  it("reads a process's parent, utime + stime and start from its stat line", () => {
    expect(parseProcStat(4242, STAT)).toEqual({
      pid: 4242,
      ppid: 4200,
      ticks: 287,
      start: "98765",
    });
    expect(parseProcStat(1, "garbage")).toBeNull();
  });

  it("a tree is the root and every descendant, nothing beside it", () => {
    const p = (pid: number, ppid: number) => ({ pid, ppid, ticks: 1, start: String(pid) });
    const all = [p(1, 0), p(10, 1), p(11, 10), p(12, 11), p(20, 1), p(13, 10)];
    expect(
      treeOf(10, all)
        .map((x) => x.pid)
        .sort(),
    ).toEqual([10, 11, 12, 13]);
    expect(treeOf(99, all)).toEqual([]);
  });

  const cpuMicros = ({ user, system }: NodeJS.CpuUsage) => user + system;

  it("measures this process on Linux: busy work shows up, and the machine's count moves too", () => {
    const machineBefore = machineCpuSeconds();
    const meter = treeCpuMeter(process.pid);
    // Busy until this process has used 0.3 s of CPU (not of wall time: on a shared machine a
    // wall-time spin may get less).
    const cpuSince = process.cpuUsage();
    let spin = 0;
    while (cpuMicros(process.cpuUsage(cpuSince)) < 300_000) spin += Math.sqrt(spin + 1);
    const seconds = meter.stop();
    if (process.platform !== "linux") {
      expect(seconds).toBeNull();
      return;
    }
    // The whole process so far, the spin included.
    expect(seconds).toBeGreaterThanOrEqual(0.25);
    expect((machineCpuSeconds() ?? 0) - (machineBefore ?? 0)).toBeGreaterThan(0);
  });

  it("the summary line names each suite's wall time and CPU-seconds, or says not measured", () => {
    expect(
      suiteTimes({
        suites: [
          { name: "sdk-page", wallMs: 32_600, cpuSeconds: 61.4 },
          { name: "storefront", wallMs: 170_200, cpuSeconds: null },
        ],
        machineCpuSeconds: 309.4,
      }),
    ).toBe(
      " (sdk-page 33 s wall, 61 CPU-s; storefront 170 s wall, CPU not measured; the machine 309 CPU-s in all)",
    );
    expect(suiteTimes({})).toBe("");
  });
});
