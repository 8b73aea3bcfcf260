import { describe, expect, it } from "vitest";
import { lockfileFor } from "./lockfile-subset.mjs";

// The minimal shop's lockfile is the part of the repository's that its package.json needs
// (scripts/minimal-shop.mjs installs it with npm ci --offline).

const rootLock = {
  packages: {
    "": { name: "root" },
    "node_modules/app-dep": {
      version: "1.0.0",
      integrity: "sha512-a",
      dev: true,
      dependencies: { shared: "^2.0.0" },
      peerDependencies: { peer: "*", "optional-peer": "*" },
      peerDependenciesMeta: { "optional-peer": { optional: true } },
      optionalDependencies: { "other-platform": "1.0.0" },
    },
    "node_modules/app-dep/node_modules/shared": { version: "2.0.0", integrity: "sha512-s2" },
    "node_modules/shared": { version: "1.0.0", integrity: "sha512-s1" },
    "node_modules/peer": { version: "3.0.0", integrity: "sha512-p" },
    "node_modules/optional-peer": { version: "1.0.0", integrity: "sha512-o" },
    "node_modules/unrelated": { version: "1.0.0", integrity: "sha512-u" },
    "node_modules/@scope/kit": { resolved: "packages/kit", link: true },
  },
};
const manifest = { name: "shop", version: "0.1.0", dependencies: { "app-dep": "1.0.0" } };

describe("lockfileFor", () => {
  it("takes each needed package at its place in the repository's lockfile, and nothing else", () => {
    const lock = lockfileFor(rootLock, manifest);
    expect(Object.keys(lock.packages)).toEqual([
      "",
      "node_modules/app-dep",
      "node_modules/app-dep/node_modules/shared",
      "node_modules/peer",
    ]);
    // The repository's dev flag says nothing of the shop: npm ci would leave the package out.
    expect(lock.packages["node_modules/app-dep"]).not.toHaveProperty("dev");
    expect(lock.packages["node_modules/app-dep"]?.integrity).toBe("sha512-a");
  });

  it("gives a packed package its tarball and follows its own needs", () => {
    const kit = { version: "0.1.0", dependencies: { shared: "^1.0.0" }, peerDependencies: {} };
    const lock = lockfileFor(
      rootLock,
      { ...manifest, dependencies: { ...manifest.dependencies, "@scope/kit": "file:kit.tgz" } },
      { "@scope/kit": { resolved: "file:kit.tgz", manifest: kit } },
    );
    expect(lock.packages["node_modules/@scope/kit"]).toMatchObject({
      version: "0.1.0",
      resolved: "file:kit.tgz",
    });
    expect(lock.packages["node_modules/shared"]?.version).toBe("1.0.0");
  });

  it("with peers: false leaves every peer out (a consumer that links its peers itself)", () => {
    const lock = lockfileFor(rootLock, manifest, {}, { peers: false });
    expect(Object.keys(lock.packages)).toEqual([
      "",
      "node_modules/app-dep",
      "node_modules/app-dep/node_modules/shared",
    ]);
  });

  it("refuses a needed package the repository's lockfile lacks, or a workspace link", () => {
    expect(() =>
      lockfileFor(rootLock, { ...manifest, dependencies: { missing: "1.0.0" } }),
    ).toThrow(/missing/);
    expect(() =>
      lockfileFor(rootLock, { ...manifest, dependencies: { "@scope/kit": "0.1.0" } }),
    ).toThrow(/workspace link/);
  });
});
