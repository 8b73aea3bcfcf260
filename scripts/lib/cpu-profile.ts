// Reads a V8 CPU profile (`node --cpu-prof`) and names where the time went: self time per
// function and per package, the top entries first. Used by `npm run bench:pages -- --profile`.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileEntry {
  name: string;
  /** milliseconds of samples in this entry itself */
  selfMs: number;
  /** share of all sampled time, 0–100 */
  percent: number;
}

/** Where a frame's code lives: a package of node_modules, Node itself, or the app's own build. */
export function packageOf(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const chunk = url.indexOf(".next/server/");
  if (chunk >= 0) return `.next/server (${url.slice(chunk + 13).split("/")[0]})`;
  return url.replace(/^file:\/\//, "");
}

/** Self time per function and per package, from the samples and their time deltas. */
export function summarize(profile: CpuProfile, top = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, deltas[i] ?? 0));
  }
  let totalUs = 0;
  let idleUs = 0;
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") {
      if (functionName === "(idle)") idleUs += us;
      else totalUs += us;
      continue;
    }
    totalUs += us;
    const where = url ? `${packageOf(url)}:${lineNumber + 1}` : "";
    const name = `${functionName || "(anonymous)"} ${where}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
    const pkg = functionName === "(garbage collector)" ? "(garbage collector)" : packageOf(url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const rank = (m: Map<string, number>): ProfileEntry[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        selfMs: Math.round(us / 1000),
        percent: Math.round((us / Math.max(1, totalUs)) * 1000) / 10,
      }));
  return {
    busyMs: Math.round(totalUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    functions: rank(functions),
    packages: rank(packages),
  };
}

export function summarizeFile(file: string, top?: number) {
  return summarize(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, top);
}
