import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

// The README promises a fresh clone works with the Node it names (package.json `engines`): every
// installed package must declare that it runs there too, or `npm install` warns (EBADENGINE)
// and the promise is only luck.
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

describe("Node version promised by package.json", () => {
  const promised: string = read("package.json").engines.node;
  const lowest = semver.minVersion(promised);

  it("is what the README says", () => {
    expect(lowest).not.toBeNull();
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain(`Node ${lowest?.major}.${lowest?.minor} or later`);
  });

  it("is accepted by every installed package's declared engines", () => {
    const lock = read("package-lock.json") as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== "")
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && lowest && !semver.satisfies(lowest, range) ? [`${name} (${range})`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
