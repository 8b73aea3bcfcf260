import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README promises a fresh clone works with the Node it names (package.json `engines`): every
// installed package must declare that it runs there too, or `npm install` warns (EBADENGINE)
// and the promise is only luck.
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

describe("Node version promised by package.json", () => {
  const promised: string = read("package.json").engines.node;
  const lowest = /^>=(\d+)\.(\d+)$/.exec(promised);

  it("is what the README says", () => {
    expect(lowest, `engines.node "${promised}" should read >=MAJOR.MINOR`).not.toBeNull();
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain(`Node ${lowest?.[1]}.${lowest?.[2]} or later`);
  });

  it("is accepted by every installed package's declared engines", () => {
    const lock = read("package-lock.json") as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== "")
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        const version = [Number(lowest?.[1]), Number(lowest?.[2]), 0] as const;
        return range && !satisfies(version, range) ? [`${name} (${range})`] : [];
      });
    expect(refusing).toEqual([]);
  });
});

type Version = readonly [number, number, number];

/** The engines ranges npm packages use: `||` of space-separated comparators (`>=`, `>`, `<`,
 *  `<=`, `^`, `~`, `X.x`, exact). Anything else counts as not satisfied, so it gets looked at. */
function satisfies(version: Version, range: string): boolean {
  return range.split("||").some((set) =>
    set
      // ">= 10" means ">=10"
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, "$1")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => meets(version, comparator)),
  );
}

function meets(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (!m) return comparator === "*";
  const [, op = "", ...parts] = m;
  const wild = parts.findIndex((p) => p === undefined || p === "x" || p === "*");
  const nums = parts.map((p) => (p === undefined || p === "x" || p === "*" ? 0 : Number(p)));
  const target = [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 0] as const;
  const cmp = compare(v, target);
  switch (op) {
    case ">=":
      return cmp >= 0;
    case ">":
      return cmp > 0;
    case "<=":
      return cmp <= 0;
    case "<":
      return cmp < 0;
    case "^":
      return cmp >= 0 && (target[0] > 0 ? v[0] === target[0] : v[0] === 0 && v[1] === target[1]);
    case "~":
      return cmp >= 0 && v[0] === target[0] && v[1] === target[1];
    default:
      // "20.x" or "20": that major (and minor when given); "1.2.3": exactly it.
      if (wild === -1) return cmp === 0;
      return parts.slice(0, wild).every((p, i) => Number(p) === v[i]);
  }
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

describe("the engines range reader", () => {
  it.each([
    [[20, 19, 0], ">=20.9", true],
    [[20, 19, 0], "^20.19.0 || >=22.12.0", true],
    [[20, 9, 0], "^20.19.0 || >=22.12.0", false],
    [[20, 19, 0], ">=22.13.0", false],
    [[20, 19, 0], "20.x || 22.x || 23.x", true],
    [[20, 19, 0], "^18.0.0 || ^20.0.0", true],
    [[20, 19, 0], ">=14.21.3", true],
    [[20, 19, 0], ">= 18", true],
    [[20, 19, 0], "10.* || >= 12.*", true],
    [[20, 19, 0], "<20", false],
    [[20, 19, 0], "~20.18.0", false],
  ] as const)("%j in %s: %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});
