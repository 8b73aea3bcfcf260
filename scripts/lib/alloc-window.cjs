// Preloaded into a benchmark's server (`node --require <this file>`, BENCH_ALLOC_DIR set): counts
// what the process allocates over a window the benchmark opens and closes with SIGUSR2, so a
// measured level's bytes per request can be read beside its CPU per request. A byte count moves
// far less with the machine's load than a rate or a time (docs/decisions/webhook-storage.md).
//
// - Allocated bytes: V8's heap in use at the window's start, then at every collection the growth
//   since the one before (`v8.GCProfiler`: the heap before and after each collection), then the
//   growth to the window's end. Buffers' and typed arrays' backing stores live outside V8's heap
//   and are not counted, as in `--trace-gc`.
// - With BENCH_HEAP_PROFILE=1 also a sampling heap profile of the window (the inspector's
//   HeapProfiler, every sample kept, collected or not: an allocation profile, not a retention
//   one; `--heap-prof` keeps only what is still alive when the process exits), readable by
//   scripts/heap-profile-table.mjs or a browser's DevTools.
//
// Each closed window writes `<BENCH_ALLOC_DIR>/<pid>-<n>.json`: { allocatedBytes, collections,
// gcMs, profile? }.
const fs = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");
const inspector = require("node:inspector");

const dir = process.env.BENCH_ALLOC_DIR;
const withProfile = process.env.BENCH_HEAP_PROFILE === "1";
// Bytes between samples: small enough for a few thousand samples per second of load.
const SAMPLING_INTERVAL = 16 * 1024;

let open = null;
let windows = 0;
let session = null;

function post(method, params) {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function start() {
  const profiler = new v8.GCProfiler();
  const window = { profiler, used: v8.getHeapStatistics().used_heap_size };
  open = window;
  if (withProfile) {
    session = new inspector.Session();
    session.connect();
    await post("HeapProfiler.enable");
    await post("HeapProfiler.startSampling", {
      samplingInterval: SAMPLING_INTERVAL,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  profiler.start();
}

async function stop() {
  const window = open;
  open = null;
  // Diagnostic (BENCH_HEAP_SNAPSHOT=1): what is alive at the window's end, before it closes.
  if (process.env.BENCH_HEAP_SNAPSHOT === "1") {
    v8.writeHeapSnapshot(path.join(dir, `${process.pid}-${windows + 1}.heapsnapshot`));
  }
  const { statistics } = window.profiler.stop();
  const end = v8.getHeapStatistics().used_heap_size;
  let allocated = 0;
  let last = window.used;
  let gcMs = 0;
  // By kind of collection: how many, their time, and what they left in the old generation
  // (promoted by a scavenge: alive when it ran).
  const byType = {};
  const space = (stats, name) =>
    stats.heapSpaceStatistics.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;
  const oldSpace = (stats) => space(stats, "old_space");
  const newSpace = (stats) => space(stats, "new_space");
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - last);
    last = gc.afterGC.heapStatistics.usedHeapSize;
    gcMs += gc.cost / 1000;
    byType[gc.gcType] ??= { count: 0, ms: 0, promotedBytes: 0, survivedBytes: 0 };
    const kind = byType[gc.gcType];
    kind.count += 1;
    kind.ms += gc.cost / 1000;
    const promoted = Math.max(0, oldSpace(gc.afterGC) - oldSpace(gc.beforeGC));
    kind.promotedBytes += promoted;
    // What a scavenge copied: the young objects still alive (kept young, or promoted). Its
    // work, counted: unlike its time, a busier machine does not change it.
    if (gc.gcType === "Scavenge") kind.survivedBytes += newSpace(gc.afterGC) + promoted;
  }
  allocated += Math.max(0, end - last);
  const heap = { start: window.used, end, limit: v8.getHeapStatistics().heap_size_limit };
  const out = { allocatedBytes: allocated, collections: statistics.length, gcMs, byType, heap };
  if (withProfile) {
    out.profile = (await post("HeapProfiler.stopSampling")).profile;
    await post("HeapProfiler.disable");
    session.disconnect();
    session = null;
  }
  windows += 1;
  const file = path.join(dir, `${process.pid}-${windows}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(out));
  fs.renameSync(`${file}.tmp`, file);
}

if (dir) {
  fs.mkdirSync(dir, { recursive: true });
  process.on("SIGUSR2", () => {
    (open ? stop() : start()).catch((error) => console.error("[alloc-window]", error));
  });
}
