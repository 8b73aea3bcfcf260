#!/usr/bin/env node
// npm run test:minimal-shop: the quick start of docs/integrating.md (Prisma 6 on SQLite,
// iron-session) built and run as an integrator outside this repository has it
// (scripts/lib/example-host.mjs): the kit and the Prisma adapter from their tarballs, installed
// offline outside the repository in an empty app (examples/minimal-shop's package.json and
// tsconfig.json); its routes, job routes, wiring and instrumentation.ts written there by the
// installed kit's `service-integration-kit init`; the minimal shop's pages laid over them; then
// every file of the doc's quick start written from the doc as it reads now (its schema, Prisma
// config and CLI script, database, iron-session identity, callbacks, checkout and actions), its
// build commands run (migrations, client); built there; its conformance test run there against
// the installed kit; its deploy commands (migrate deploy), a seed; shop on 5510, emulator on 5520
// (ports 5500-5599); go-live scenarios 1-3, its own journeys, then the readiness report with
// --strict --active from the emulator's tarball. `-- --no-build` reuses the last build.
import { randomBytes, scryptSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { runExampleHost } from "./lib/example-host.mjs";

const root = path.resolve(import.meta.dirname, "..");

const status = await runExampleHost({
  name: "minimal-shop",
  packages: {
    "@service-integration/kit": "packages/kit",
    "@service-integration/prisma-adapter": "packages/prisma-adapter",
  },
  // Made with the installed kit's `init` (its routes, job routes, wiring and instrumentation.ts),
  // this shop's pages laid over it, then the quick start's files from the doc.
  init: true,
  quickStart: "docs/integrating.md",
  shopPort: 5510,
  emulatorPort: 5520,
  readyPath: "/login",
  conformance: {
    tests: ["lib/service/conformance.test.ts"],
    support: ["vitest.config.ts", "test-support"],
  },
  env: ({ work, shopUrl }) => ({
    SHOP_URL: shopUrl,
    DATABASE_URL: `file:${path.join(work, "shop.db")}`,
    SESSION_SECRET: "minimal-shop-test-session-secret-0123456789",
    // The journeys' own: where the shop is, its database file (the stored order), the password.
    MINI_SHOP_URL: shopUrl,
    MINI_DATABASE_FILE: path.join(work, "shop.db"),
    MINI_CUSTOMER_PASSWORD: "correct horse battery staple",
  }),
  // The shop's data, after the quick start's deploy commands migrated the database: three
  // products (EUR; unit price before tax and unit tax, cents) and the customer the journeys sign
  // in as, its password as the quick start's sign-in route checks it (salt:scrypt, hex).
  beforeStart({ appShop, env }) {
    const Database = createRequire(path.join(appShop, "package.json"))("better-sqlite3");
    const db = new Database(env.MINI_DATABASE_FILE);
    const product = db.prepare(
      'INSERT INTO "Product" (id, name, description, price, tax) VALUES (?, ?, ?, ?, ?)',
    );
    product.run("laptop", "Laptop 14", "A light laptop.", 84000, 15960);
    product.run("phone", "Phone X", "A phone with a big screen.", 42000, 7980);
    product.run("cable", "USB-C cable", "Two metres.", 1000, 190);
    const salt = randomBytes(16).toString("hex");
    const hash = scryptSync(env.MINI_CUSTOMER_PASSWORD, salt, 32).toString("hex");
    db.prepare(
      'INSERT INTO "Customer" (id, email, "givenName", "familyName", "passwordHash") VALUES (?, ?, ?, ?, ?)',
    ).run("c_1", "ada@example.com", "Ada", "Lovelace", `${salt}:${hash}`);
    db.close();
  },
  // better-sqlite3's prebuilt binary is a download (unreachable offline), so its install script
  // compiles it: about a minute of CPU per copy (measured on one shared core: the install took
  // 279 s so, 27 s without). The host holds one copy: its package.json overrides the 11.x that
  // @prisma/adapter-better-sqlite3 6.19 pins with the host's own 12.x, as this repository's does
  // (docs/decisions/offline-installs.md). The binary this checkout's own install made is handed
  // to its prebuild-install as a local prebuild instead, the way a networked install downloads
  // it (an rc file in a parent of the package's folder: an environment variable named with a "-"
  // does not survive the install script's shell).
  beforeInstall({ app, run }) {
    const prebuilds = path.join(app, "prebuilds");
    mkdirSync(prebuilds);
    const { modules } = process.versions;
    const binary = "build/Release/better_sqlite3.node";
    const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
    const made = new Set();
    for (const at of Object.keys(lock.packages)) {
      if (!/(^|\/)node_modules\/better-sqlite3$/.test(at)) continue;
      const own = path.join(root, at);
      const { version } = JSON.parse(readFileSync(path.join(own, "package.json"), "utf8"));
      if (made.has(version) || !existsSync(path.join(own, binary))) continue;
      made.add(version);
      const name = `better-sqlite3-v${version}-node-v${modules}-${process.platform}-${process.arch}.tar.gz`;
      run("tar", ["-czf", path.join(prebuilds, name), "-C", own, binary]);
    }
    writeFileSync(
      path.join(app, ".prebuild-installrc"),
      JSON.stringify({ "local-prebuilds": prebuilds }),
    );
  },
});
process.exit(status);
