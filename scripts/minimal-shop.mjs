#!/usr/bin/env node
// npm run test:minimal-shop: the second host (examples/minimal-shop) end to end, as an integrator
// outside this repository has it (scripts/lib/example-host.mjs): the kit and the Drizzle adapter
// from their tarballs, installed offline outside the repository; its routes, job routes and
// instrumentation.ts written there by the installed kit's `service-integration-kit init`, this
// shop's own files laid over them; built there; its conformance test run there against the
// installed kit; shop on 5510, emulator on 5520 (ports 5500-5599); go-live scenarios 1-3, its own
// journeys, then the readiness report with --strict --active from the emulator's tarball.
// `-- --no-build` reuses the last build.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runExampleHost } from "./lib/example-host.mjs";

const root = path.resolve(import.meta.dirname, "..");

const status = await runExampleHost({
  name: "minimal-shop",
  packages: {
    "@service-integration/kit": "packages/kit",
    "@service-integration/drizzle-adapter": "packages/drizzle-adapter",
  },
  // Made with the installed kit's `init` (its routes, job routes and instrumentation.ts), then
  // this shop's own files laid over it.
  init: true,
  shopPort: 5510,
  emulatorPort: 5520,
  readyPath: "/login",
  conformance: {
    tests: ["lib/service/conformance.test.ts"],
    support: ["vitest.config.ts", "test-support"],
  },
  env: ({ work, shopUrl }) => ({
    MINI_SHOP_URL: shopUrl,
    MINI_DATABASE_FILE: path.join(work, "shop.db"),
    MINI_SESSION_SECRET: "minimal-shop-test-session-secret-0123456789",
    MINI_CUSTOMER_PASSWORD: "correct horse battery staple",
  }),
  // better-sqlite3's prebuilt binary is a download (unreachable offline), so its install script
  // compiles it (measured on one shared core: the install took 279 s so, 27 s without). The
  // binary this checkout's own install made of the same version is handed to its prebuild-install
  // as a local prebuild instead (an rc file in a parent of the package's folder: an environment
  // variable named with a "-" does not survive the install script's shell).
  beforeInstall({ app, manifest, run }) {
    const ownSqlite = path.join(root, "node_modules/better-sqlite3");
    const prebuilds = path.join(app, "prebuilds");
    const version = JSON.parse(readFileSync(path.join(ownSqlite, "package.json"), "utf8")).version;
    if (version !== manifest.dependencies["better-sqlite3"]) return;
    mkdirSync(prebuilds);
    const { modules } = process.versions;
    const name = `better-sqlite3-v${version}-node-v${modules}-${process.platform}-${process.arch}.tar.gz`;
    const binary = "build/Release/better_sqlite3.node";
    run("tar", ["-czf", path.join(prebuilds, name), "-C", ownSqlite, binary]);
    writeFileSync(
      path.join(app, ".prebuild-installrc"),
      JSON.stringify({ "local-prebuilds": prebuilds }),
    );
  },
});
process.exit(status);
