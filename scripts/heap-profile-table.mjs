// Reads an allocation window of a benchmark's server (scripts/lib/alloc-window.cjs with
// BENCH_HEAP_PROFILE=1) and prints where its bytes were allocated, in KB per request:
//   node scripts/heap-profile-table.mjs <window.json> <requests> [--by=source|function|total] [--top=40]
// - source (default): each allocation charged to the innermost frame on its stack that is the
//   integration's or the shop's code or a library of theirs (Prisma, zod); what is left is the
//   request's handling by Next.js and Node. Promises' async-hook bookkeeping (AsyncLocalStorage)
//   is charged to whoever made the promise, as it runs in the maker's stack.
// - function: self bytes by function and source file;
// - total: a function's bytes with everything it called (once per stack, recursion counted once).
// Frames of the app's bundles (.next/server/chunks) are named through their source maps.
// Sampled (16 KB between samples), so a figure under about 0.5 KB per request is noise.
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const [file, requestsArg] = args.filter((a) => !a.startsWith("--"));
if (!file || !requestsArg) {
  console.error("usage: heap-profile-table.mjs <window.json> <requests> [--by=…] [--top=N]");
  process.exit(2);
}
const requests = Number(requestsArg);
const by = option("by", "source");
const top = Number(option("top", "40"));
const window = JSON.parse(readFileSync(file, "utf8"));
if (!window.profile) throw new Error(`${file} has no profile (BENCH_HEAP_PROFILE=1)`);

const maps = new Map();
/** The original file (and function) of a frame in a bundle with a source map, else its own. */
function original({ url, lineNumber, columnNumber, functionName }) {
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (!path.includes("/.next/server/")) return { source: path, name: functionName };
  if (!maps.has(path)) {
    try {
      maps.set(path, new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8"))));
    } catch {
      maps.set(path, null);
    }
  }
  const entry = maps.get(path)?.findEntry(lineNumber, columnNumber);
  if (!entry?.originalSource) return { source: path, name: functionName };
  return {
    source: entry.originalSource.replace(/^(\.\.\/)+/, ""),
    name: entry.name ?? functionName,
  };
}

/** A short name for where code lives: a package, or a file of the repository. */
function placeOf(source) {
  if (!source) return "(V8 / native)";
  if (source.startsWith("node:")) return "node";
  const modules = source.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = source.slice(modules + "node_modules/".length).split("/");
    const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    return name === "next" ? `next (${rest.slice(1, 3).join("/")})` : name;
  }
  return source.replace(/^.*?\/(app|lib|packages)\//, "$1/");
}

/** For --by=source: the owner of an allocation made in this frame, or null (look further out). */
function ownerOf(place) {
  if (place.includes("prisma")) return "Prisma (client, query compiler, driver adapter)";
  if (place === "zod") return "zod";
  if (place.startsWith("packages/"))
    return place.replace(/\/(dist|src)\//, ": ").replace(/\.[jt]s$/, "");
  if (place.startsWith("app/") || place.startsWith("lib/")) return `shop: ${place}`;
  return null;
}

const self = new Map();
const total = new Map();
let all = 0;
function walk(node, stack, owner) {
  const { source, name } = original(node.callFrame);
  const place = placeOf(source);
  const key = `${name || "(anonymous)"} ${place}`;
  const here = ownerOf(place) ?? owner;
  const size = node.selfSize;
  all += size;
  const selfKey = by === "source" ? (here ?? "Next.js and Node (the request's handling)") : key;
  self.set(selfKey, (self.get(selfKey) ?? 0) + size);
  const inner = new Set(stack).add(key);
  let sum = size;
  for (const child of node.children ?? []) sum += walk(child, inner, here);
  if (!stack.has(key)) total.set(key, (total.get(key) ?? 0) + sum);
  return sum;
}
walk(window.profile.head, new Set(), null);

const kb = (bytes) => (bytes / 1024 / requests).toFixed(2).padStart(8);
console.log(
  `${file}: ${requests} requests; sampled ${kb(all)} KB/req, counted ${kb(window.allocatedBytes)} KB/req (V8's heap), ${window.collections} collections`,
);
const rows = [...(by === "total" ? total : self)].sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [key, bytes] of rows) console.log(`${kb(bytes)} KB/req  ${key}`);
