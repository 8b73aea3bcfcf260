import { appendFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { command, runGraph } from "./step-graph.mjs";

// npm test's scheduler (scripts/test.mjs): needs, groups held alone, slots, failures.

/** A step that records when it starts and ends, and finishes when `release(id)` is called. */
function harness() {
  const events: string[] = [];
  const pending = new Map<string, (ok: boolean) => void>();
  const step = (
    id: string,
    extra: { needs?: string[]; holds?: string[]; alone?: boolean } = {},
  ) => ({
    id,
    title: id,
    ...extra,
    run: (logFile: string) =>
      new Promise<void>((resolve, reject) => {
        events.push(`start ${id}`);
        appendFileSync(logFile, `output of ${id}\n`);
        pending.set(id, (ok) => {
          events.push(`end ${id}`);
          ok ? resolve() : reject(new Error(`${id} broke`));
        });
      }),
  });
  /** Ends the named running step, then lets the scheduler react. */
  const release = async (id: string, ok = true) => {
    const done = pending.get(id);
    if (!done) throw new Error(`${id} is not running (events: ${events.join(", ")})`);
    pending.delete(id);
    done(ok);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const running = () => [...pending.keys()].sort();
  return { events, step, release, running };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe("runGraph", () => {
  const logDir = () => mkdtempSync(path.join(tmpdir(), "step-graph-"));

  it("runs up to `slots` steps at once, in the order given, each once what it needs passed", async () => {
    const h = harness();
    const printed: string[] = [];
    const done = runGraph(
      [h.step("build"), h.step("typecheck"), h.step("lint"), h.step("e2e", { needs: ["build"] })],
      { slots: 2, logDir: logDir(), print: (t: string) => printed.push(t) },
    );
    await settle();
    expect(h.running()).toEqual(["build", "typecheck"]);
    await h.release("typecheck");
    expect(h.running()).toEqual(["build", "lint"]);
    await h.release("build");
    expect(h.running()).toEqual(["e2e", "lint"]);
    await h.release("lint");
    await h.release("e2e");
    const results = await done;
    expect([...results.values()].every((r) => r.outcome === "passed")).toBe(true);
    // each step's output whole under its header, never mixed with another's
    const text = printed.join("");
    expect(text).toMatch(/━━━ typecheck ━+\noutput of typecheck\n✓ typecheck/);
    expect(text).toMatch(/━━━ build ━+\noutput of build\n✓ build/);
  });

  it("with one slot, runs them one after the other in the order given", async () => {
    const h = harness();
    const done = runGraph([h.step("a"), h.step("b", { needs: ["c"] }), h.step("c")], {
      slots: 1,
      logDir: logDir(),
      print: () => {},
    });
    await settle();
    for (const id of ["a", "c", "b"]) {
      expect(h.running()).toEqual([id]);
      await h.release(id);
    }
    await done;
    expect(h.events).toEqual(["start a", "end a", "start c", "end c", "start b", "end b"]);
  });

  it("never runs two steps holding the same group at once", async () => {
    const h = harness();
    const done = runGraph(
      [
        h.step("release", { holds: ["browser"] }),
        h.step("shop-own", { holds: ["browser"] }),
        h.step("unit"),
      ],
      { slots: 2, logDir: logDir(), print: () => {} },
    );
    await settle();
    expect(h.running()).toEqual(["release", "unit"]);
    await h.release("unit");
    expect(h.running()).toEqual(["release"]);
    await h.release("release");
    expect(h.running()).toEqual(["shop-own"]);
    await h.release("shop-own");
    await done;
  });

  it("runs a step that keeps every core busy alone, and starts nothing after it meanwhile", async () => {
    const h = harness();
    const done = runGraph(
      [
        h.step("build"),
        h.step("typecheck"),
        h.step("release", { needs: ["build"], alone: true }),
        h.step("packages"),
        h.step("unit"),
      ],
      { slots: 2, logDir: logDir(), print: () => {} },
    );
    await settle();
    expect(h.running()).toEqual(["build", "typecheck"]);
    // The release suite's need is running: the slot typecheck leaves waits for it, not packages.
    await h.release("typecheck");
    expect(h.running()).toEqual(["build"]);
    await h.release("build");
    expect(h.running()).toEqual(["release"]);
    await h.release("release");
    expect(h.running()).toEqual(["packages", "unit"]);
    await h.release("packages");
    await h.release("unit");
    const results = await done;
    expect([...results.values()].every((r) => r.outcome === "passed")).toBe(true);
  });

  it("a step to run alone waits for the steps before it in the order to end", async () => {
    const h = harness();
    const done = runGraph([h.step("a"), h.step("b"), h.step("alone", { alone: true })], {
      slots: 2,
      logDir: logDir(),
      print: () => {},
    });
    await settle();
    expect(h.running()).toEqual(["a", "b"]);
    await h.release("a");
    expect(h.running()).toEqual(["b"]);
    await h.release("b");
    expect(h.running()).toEqual(["alone"]);
    await h.release("alone");
    await done;
  });

  it("a step to run alone whose need is not started yet holds nothing back", async () => {
    const h = harness();
    const done = runGraph(
      [h.step("alone", { needs: ["late"], alone: true }), h.step("a"), h.step("late")],
      { slots: 2, logDir: logDir(), print: () => {} },
    );
    await settle();
    expect(h.running()).toEqual(["a", "late"]);
    await h.release("late");
    // now due: a runs on, nothing new starts, then it runs alone
    expect(h.running()).toEqual(["a"]);
    await h.release("a");
    expect(h.running()).toEqual(["alone"]);
    await h.release("alone");
    await done;
  });

  it("a failed step skips what needs it, directly or not, and says which; the rest still runs", async () => {
    const h = harness();
    const printed: string[] = [];
    const done = runGraph(
      [
        h.step("build"),
        h.step("e2e", { needs: ["build"] }),
        h.step("report", { needs: ["e2e"] }),
        h.step("unit"),
      ],
      { slots: 2, logDir: logDir(), print: (t: string) => printed.push(t) },
    );
    await settle();
    await h.release("build", false);
    expect(h.running()).toEqual(["unit"]);
    await h.release("unit");
    const results = await done;
    expect(Object.fromEntries([...results].map(([id, r]) => [id, r.outcome]))).toEqual({
      build: "failed",
      e2e: "skipped",
      report: "skipped",
      unit: "passed",
    });
    expect(results.get("report")?.reason).toBe("build");
    expect(printed.join("")).toMatch(/✗ build failed .*build broke/);
    expect(printed.join("")).toMatch(/e2e: skipped, it needs "build"/);
  });

  it("with cgroups, runs each step in its own and prints its CPU-seconds beside its time", async () => {
    const printed: string[] = [];
    const wraps: string[] = [];
    const cpu = {
      group: (id: string) => ({
        wrap: (file: string, args: string[]): [string, string[]] => [file, [...args, id]],
        seconds: () => (id === "build" ? 123.45 : 6),
      }),
    };
    const results = await runGraph(
      ["build", "lint"].map((id) => ({
        id,
        title: id,
        run: async (
          _logFile: string,
          context: { wrap?: (f: string, a: string[]) => [string, string[]] },
        ) => {
          wraps.push(context.wrap?.("cmd", [])[1].join(" ") ?? "none");
        },
      })),
      { slots: 1, logDir: logDir(), cpu, print: (t: string) => printed.push(t) },
    );
    expect(wraps).toEqual(["build", "lint"]);
    expect(results.get("build")?.cpuSeconds).toBe(123.45);
    const text = printed.join("");
    expect(text).toMatch(/━━━ build \(\d+\.\d s, 123\.5 CPU-s\) ━+\n/);
    expect(text).toMatch(/✓ lint \(\d+\.\d s, 6\.0 CPU-s\)/);
  });

  it("without cgroups (or when one cannot be made), runs the step with no CPU figure", async () => {
    const printed: string[] = [];
    const results = await runGraph([{ id: "a", title: "a", run: async () => {} }], {
      slots: 1,
      logDir: logDir(),
      cpu: {
        group: () => {
          throw new Error("EACCES");
        },
      },
      print: (t: string) => printed.push(t),
    });
    expect(results.get("a")).toMatchObject({ outcome: "passed", cpuSeconds: undefined });
    expect(printed.join("")).toMatch(/✓ a \(\d+\.\d s\)\n/);
  });

  it("refuses a need that names no step", async () => {
    await expect(
      runGraph([{ id: "a", title: "a", needs: ["nope"], run: async () => {} }], {
        slots: 1,
        logDir: logDir(),
      }),
    ).rejects.toThrow(/a needs nope/);
  });
});

describe("command", () => {
  it("appends the command's stdout and stderr to the step's file; a non-zero exit rejects", async () => {
    const file = path.join(logDir(), "step.log");
    appendFileSync(file, "");
    await command(file, process.execPath, ["-e", "console.log('out'); console.error('err')"]);
    await expect(command(file, process.execPath, ["-e", "process.exit(3)"])).rejects.toThrow(
      /exited 3/,
    );
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(file, "utf8")).toBe("out\nerr\n");
  });
  it("runs the command through `wrap` (the step's cgroup) when given one", async () => {
    const file = path.join(logDir(), "step.log");
    appendFileSync(file, "");
    await command(file, process.execPath, ["-e", "console.log(process.argv[1])"], {
      wrap: (f, args) => [f, [...args, "wrapped"]],
    });
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(file, "utf8")).toBe("wrapped\n");
  });
  function logDir() {
    return mkdtempSync(path.join(tmpdir(), "step-graph-"));
  }
});
