// A package-lock.json for a project whose dependencies are a subset of this repository's: every
// package it needs, at the version, place (node_modules/… path) and integrity the repository's
// own lockfile gives it. Why: `npm install --offline` without a lockfile needs each package's
// registry document (its versions), and npm's cache holds only the tarballs the repository's
// lockfile installed; with this lockfile npm takes each tarball from the cache by its integrity.
// Packages packed from this repository (`local`) are entries of their own, from their tarball.

/** The lockfile path npm's resolution finds `name` at, seen from the package at `from`. */
function resolve(packages, name, from) {
  for (let at = from; ; ) {
    const candidate = `${at ? `${at}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!at) return null;
    const up = at.lastIndexOf("/node_modules/");
    at = up < 0 ? "" : at.slice(0, up);
  }
}

/** The names an installed package needs: dependencies, optional ones, non-optional peers (unless
 *  `peers` is false: a project that brings its peers another way, installed --legacy-peer-deps). */
function needs(entry, peers) {
  const optional = new Set(Object.keys(entry.optionalDependencies ?? {}));
  for (const [peer, meta] of Object.entries(entry.peerDependenciesMeta ?? {}))
    if (meta.optional) optional.add(peer);
  const names = [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...(peers ? Object.keys(entry.peerDependencies ?? {}) : []).filter(
      (peer) => !optional.has(peer),
    ),
  ];
  return [...new Set(names)].map((name) => ({ name, optional: optional.has(name) }));
}

/**
 * The lockfile (version 3) of `manifest` (the project's package.json, its dependencies pinned to
 * versions the repository's lockfile `rootLock` holds), with `local` packages: name → { resolved
 * (the `file:` spec written in the manifest), manifest (the package's own package.json) }.
 * `options.peers: false` leaves every peer out (the project links its peers itself and installs
 * with --legacy-peer-deps, as scripts/packages-check.mjs does).
 */
export function lockfileFor(rootLock, manifest, local = {}, options = {}) {
  const peers = options.peers ?? true;
  const source = rootLock.packages;
  const packages = {
    "": {
      name: manifest.name,
      version: manifest.version,
      dependencies: manifest.dependencies,
      devDependencies: manifest.devDependencies,
    },
  };
  const queue = [];
  const want = (name, from, optional) => {
    if (local[name]) return;
    const at = resolve(source, name, from);
    if (!at) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || manifest.name}) is not in the lockfile`);
    }
    if (packages[at]) return;
    const { dev, devOptional, peer, ...entry } = source[at];
    if (entry.link) throw new Error(`${name} is a workspace link: pack it and pass it as local`);
    packages[at] = entry;
    queue.push(at);
  };
  for (const [name, { resolved, manifest: pkg }] of Object.entries(local)) {
    const at = `node_modules/${name}`;
    const { dependencies, peerDependencies, peerDependenciesMeta, engines } = pkg;
    // Its commands as npm's own lockfile lists them (the kit's service-integration-kit), so `npm
    // ci` links them into node_modules/.bin.
    const bin =
      pkg.bin &&
      Object.fromEntries(
        Object.entries(pkg.bin).map(([cmd, file]) => [cmd, file.replace(/^\.\//, "")]),
      );
    packages[at] = {
      version: pkg.version,
      resolved,
      bin,
      dependencies,
      peerDependencies,
      peerDependenciesMeta,
      engines,
    };
    queue.push(at);
  }
  const direct = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const name of Object.keys(direct)) want(name, "", false);
  while (queue.length > 0) {
    const at = queue.shift();
    for (const { name, optional } of needs(packages[at], peers)) want(name, at, optional);
  }
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: sorted,
  };
}
