#!/usr/bin/env node
// `npm run test:packages` (npm test's step "Packages: pack, lint and install"): each workspace
// package as an integrator receives it. `npm pack` makes the tarball (its prepack builds dist/),
// publint and @arethetypeswrong/cli lint that tarball, then it is installed offline into an empty
// folder, each public entry is imported from plain Node (ESM) and a small consumer file is
// type-checked against it with tsc. Exit 0 only when all of it passes.
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./lib/env.mjs";
import { lockfileFor } from "./lib/lockfile-subset.mjs";
import { packWorkspace } from "./lib/pack.mjs";
import { run } from "./lib/run.mjs";

const bin = (name) => path.join(root, "node_modules/.bin", name);

/** The kit as an integrator sees it: its entries, the Node conditions each needs outside a
 *  bundler, and one name each must export (a check that the entry is the one meant). */
const KIT = {
  dir: "packages/kit",
  name: "@service-integration/kit",
  // Installed beside the tarball from this repository's node_modules, not from a registry: the
  // step stays offline and seconds long (npm would otherwise copy next's whole tree in).
  // Its bin (`service-integration-kit init`) and the templates it reads.
  requiredFiles: [
    "dist/init/cli.js",
    "templates/init/drizzle/wiring.ts.tmpl",
    "templates/init/prisma/callbacks.ts.tmpl",
  ],
  peers: ["zod", "react", "next", "vitest", "@types/react", "@types/node"],
  entries: [
    { spec: "", conditions: [], exports: ["buildCart", "ServiceApiError", "ConcurrentWriteError"] },
    { spec: "/react", conditions: [], exports: ["ServicePaymentOption", "ServiceSdkLoader"] },
    // Server modules import "server-only", which throws outside a React server environment: the
    // guard that keeps tokens out of a browser bundle. Node is given the bundlers' condition.
    {
      spec: "/server",
      conditions: ["react-server"],
      exports: ["createServiceClient", "receiveOrderWebhook"],
    },
    {
      spec: "/testing",
      conditions: ["react-server"],
      exports: ["runShopPortsConformance", "MemoryTokenStore", "freshDatabasePerCheck"],
    },
    // For a host's vitest.config.ts: loads in plain Node (no server-only, no Vitest runtime).
    { spec: "/testing/config", conditions: [], exports: ["conformanceVitestConfig"] },
  ],
  // Types as a shop writes them: one value or type of each entry, used.
  // Its own extra checks: /react keeps "use client", /server refuses to load outside react-server.
  reactEntry: true,
  consumer: `import { buildCart, type TokenStore, type StoredTokens } from "@service-integration/kit";
import { createServiceClient, readServiceConfig } from "@service-integration/kit/server";
import { ServicePaymentOption, type ServiceSdkLoader } from "@service-integration/kit/react";
import { MemoryTokenStore } from "@service-integration/kit/testing";

const store: TokenStore = new MemoryTokenStore();
const tokens: StoredTokens | null = await store.load();
const client: ReturnType<typeof createServiceClient> = createServiceClient({
  config: readServiceConfig(),
  store,
});
const cart = buildCart({ id: "c1", currency: "EUR", items: [] });
const total: number = cart.total;
// @ts-expect-error: deep imports are closed (the exports map lists five entries)
import("@service-integration/kit/dist/cart.js");
export { client, tokens, total, ServicePaymentOption };
export type Loader = typeof ServiceSdkLoader;
`,
};

/** What the query-builder adapters' consumers link in beside their ORM: both drivers and their
 *  types, zod, and the kit's own peers (for the kit's tarball installed beside them). */
const SQL_ADAPTER_PEERS = [
  "pg",
  "better-sqlite3",
  "zod",
  "@types/node",
  "@types/pg",
  "@types/better-sqlite3",
  "react",
  "next",
  "vitest",
  "@types/react",
];

/** The Drizzle adapter as an integrator receives it: installed beside the kit's tarball (its
 *  peer), the ORM and drivers from this repository (optional peers: each shop brings its own). */
const DRIZZLE_ADAPTER = {
  dir: "packages/drizzle-adapter",
  name: "@service-integration/drizzle-adapter",
  withTarballsOf: [KIT],
  // drizzle-orm 0.45's own declarations fail a library check (its query builders' d.ts, and
  // drivers for databases not installed): the consumer file's use of this package's types is
  // still checked, the .d.ts files themselves are not.
  skipLibCheck: true,
  peers: ["drizzle-orm", "drizzle-kit", ...SQL_ADAPTER_PEERS],
  entries: [
    // "." holds only the callbacks' types: an empty module at run time.
    { spec: "", conditions: [], exports: [] },
    {
      spec: "/pg",
      conditions: [],
      exports: ["drizzleServiceAdapter", "serviceOrderColumns", "serviceSchema", "serviceTokens"],
    },
    {
      spec: "/sqlite",
      conditions: [],
      exports: ["drizzleServiceAdapter", "serviceOrderColumns", "sqliteTransaction"],
    },
    {
      spec: "/testing",
      conditions: [],
      exports: ["pgDdl", "sqliteDdl", "freshPostgresDatabase", "freshSqliteDatabase"],
    },
  ],
  // A shop's wiring on each database, type-checked: its orders table with the integration's
  // columns spread in, its Drizzle database, its callbacks, and the kit's ports it gets back.
  consumer: `import type { ShopCallbacks, TokenSealer } from "@service-integration/drizzle-adapter";
import * as pgAdapter from "@service-integration/drizzle-adapter/pg";
import * as sqliteAdapter from "@service-integration/drizzle-adapter/sqlite";
import { freshSqliteDatabase, sqliteDdl } from "@service-integration/drizzle-adapter/testing";
import type { StoredNotificationStore, TokenStore, TradeInRegistrationStore } from "@service-integration/kit";
import Database from "better-sqlite3";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { pgTable, text } from "drizzle-orm/pg-core";
import { sqliteTable, text as sqliteText } from "drizzle-orm/sqlite-core";
import pg from "pg";

declare const sealer: TokenSealer;
const orders = pgTable("orders", {
  id: text("id").primaryKey(),
  number: text("number").notNull().unique(),
  ...pgAdapter.serviceOrderColumns(),
});
declare const pgShop: ShopCallbacks<pgAdapter.PgQueries>;
const onPg = pgAdapter.drizzleServiceAdapter({
  db: drizzlePg(new pg.Pool()),
  orders,
  shop: pgShop,
  sealer,
});
const tokens: TokenStore = onPg.tokens;
const inbox: StoredNotificationStore = onPg.servicePay;

const sqliteOrders = sqliteTable("orders", {
  id: sqliteText("id").primaryKey(),
  number: sqliteText("number").notNull().unique(),
  ...sqliteAdapter.serviceOrderColumns(),
});
declare const sqliteShop: ShopCallbacks<sqliteAdapter.SqliteQueries>;
const db = drizzleSqlite(new Database(":memory:"));
const onSqlite = sqliteAdapter.drizzleServiceAdapter({ db, orders: sqliteOrders, shop: sqliteShop, sealer });
const tradeIns: TradeInRegistrationStore = onSqlite.tradeIns;
await sqliteAdapter.sqliteTransaction(db, async (q) => q.select().from(sqliteOrders));
const ddl: string[] = await sqliteDdl({ ...sqliteAdapter.serviceSchema, sqliteOrders });
const fresh: Database.Database = await freshSqliteDatabase(ddl);
// @ts-expect-error: deep imports are closed (the exports map lists four entries)
import("@service-integration/drizzle-adapter/dist/core.js");
export { fresh, inbox, tokens, tradeIns };
`,
  // The tables, as an integrator creates them: drizzle-kit generate over a schema that re-exports
  // the adapter's tables beside the shop's orders with the integration's columns. drizzle-kit
  // loads the schema with require(): the entries' "default" condition lets it (Node ≥ 20.19
  // requires an ES module).
  migrations: Object.fromEntries(
    [
      ["sqlite", "sqliteTable", "sqlite-core"],
      ["postgresql", "pgTable", "pg-core"],
    ].map(([dialect, table, core]) => [
      dialect,
      `import { ${table}, text } from "drizzle-orm/${core}";
import { serviceOrderColumns } from "@service-integration/drizzle-adapter/${dialect === "sqlite" ? "sqlite" : "pg"}";
export * from "@service-integration/drizzle-adapter/${dialect === "sqlite" ? "sqlite" : "pg"}";
export const orders = ${table}("orders", { id: text("id").primaryKey(), ...serviceOrderColumns() });
`,
    ]),
  ),
};

/** The Prisma adapter as an integrator receives it: installed beside the kit's tarball (its
 *  peer); its models and migrations ship as files (prisma/), which a shop copies into its own
 *  schema folder and migrations. */
const PRISMA_ADAPTER = {
  dir: "packages/prisma-adapter",
  name: "@service-integration/prisma-adapter",
  withTarballsOf: [KIT],
  // The schema file and each provider's migrations, besides dist/.
  extraFiles:
    /^prisma\/(service\.prisma|(sqlite|postgresql)\/migrations\/(migration_lock\.toml|\d{14}_\w+\/migration\.sql))$/,
  requiredFiles: [
    "prisma/service.prisma",
    "prisma/sqlite/migrations/20261126000000_service_init/migration.sql",
    "prisma/postgresql/migrations/20261126000000_service_init/migration.sql",
    "prisma/sqlite/migrations/20261128000000_checkout_asked_amount/migration.sql",
    "prisma/postgresql/migrations/20261128000000_checkout_asked_amount/migration.sql",
  ],
  peers: ["zod", "@types/node", "react", "next", "vitest", "@types/react"],
  entries: [
    // ".": types, and the sealed token row.
    { spec: "", conditions: [], exports: ["sealedTokenRow"] },
    { spec: "/pg", conditions: [], exports: ["prismaServiceAdapter"] },
    { spec: "/sqlite", conditions: [], exports: ["prismaServiceAdapter"] },
  ],
  // A shop's wiring on each database, type-checked against the client shape the adapter names
  // (this shop's own generated client is checked against it by the shop's tsc).
  consumer: `import type { PrismaServiceAdapter, ServiceClient, ServiceModels, ShopCallbacks, TokenSealer } from "@service-integration/prisma-adapter";
import { prismaServiceAdapter as onPostgres } from "@service-integration/prisma-adapter/pg";
import { prismaServiceAdapter as onSqlite } from "@service-integration/prisma-adapter/sqlite";
import type { StoredNotificationStore, TokenStore, TradeInRegistrationStore } from "@service-integration/kit";
import { readFileSync } from "node:fs";

declare const sealer: TokenSealer;
declare const db: ServiceModels & ServiceClient<ServiceModels>;
declare const shop: ShopCallbacks<ServiceModels>;
const pgPorts: PrismaServiceAdapter = onPostgres({ db, shop, sealer });
const tokens: TokenStore = pgPorts.tokens;
const inbox: StoredNotificationStore = onSqlite({ db, shop, sealer, tokenId: "default" }).servicePay;
const tradeIns: TradeInRegistrationStore = onSqlite({ db, shop, sealer }).tradeIns;
// The models' file is read by path beside the package's manifest (a shop's CLI script copies
// it into its schema folder); deep imports of dist/ are closed.
const manifest: string = import.meta.resolve("@service-integration/prisma-adapter/package.json");
const models = readFileSync(new URL("prisma/service.prisma", manifest), "utf8");
if (!models.includes("model ServiceNotification {")) throw new Error("no models in service.prisma");
// @ts-expect-error: deep imports are closed (the exports map lists the entries)
import("@service-integration/prisma-adapter/dist/core.js");
export { inbox, models, tokens, tradeIns };
`,
};

/** The Kysely adapter as an integrator receives it: installed beside the kit's tarball (its
 *  peer), Kysely and the drivers from this repository (each shop brings its own); its tables
 *  ship as SQL strings of /pg and /sqlite, which a shop puts into its migrations. */
const KYSELY_ADAPTER = {
  dir: "packages/kysely-adapter",
  name: "@service-integration/kysely-adapter",
  withTarballsOf: [KIT],
  peers: ["kysely", ...SQL_ADAPTER_PEERS],
  entries: [
    // "." holds only types: an empty module at run time.
    { spec: "", conditions: [], exports: [] },
    { spec: "/pg", conditions: [], exports: ["kyselyServiceAdapter", "serviceTablesSql"] },
    {
      spec: "/sqlite",
      conditions: [],
      exports: ["kyselyServiceAdapter", "sqliteTransaction", "serviceOrderColumnsSql"],
    },
    {
      spec: "/testing",
      conditions: [],
      exports: ["freshPostgresDatabase", "freshSqliteDatabase", "sqliteServiceTablesSql"],
    },
  ],
  // A shop's wiring on each database, type-checked: its Kysely database, its callbacks, the
  // shipped SQL beside its own orders table, and the kit's ports it gets back.
  consumer: `import type { KyselyServiceAdapter, ServiceDatabase, ShopCallbacks, TokenSealer } from "@service-integration/kysely-adapter";
import * as onPostgres from "@service-integration/kysely-adapter/pg";
import * as onSqlite from "@service-integration/kysely-adapter/sqlite";
import { freshSqliteDatabase } from "@service-integration/kysely-adapter/testing";
import type { StoredNotificationStore, TokenStore, TradeInRegistrationStore } from "@service-integration/kit";
import { Kysely, SqliteDialect } from "kysely";

interface ShopTables {
  shop_orders: { id: string; number: string; status: string };
}
declare const sealer: TokenSealer;
declare const pgDb: Kysely<ShopTables>;
declare const pgShop: ShopCallbacks<Kysely<ShopTables>>;
const onPg: KyselyServiceAdapter<ShopTables> = onPostgres.kyselyServiceAdapter({ db: pgDb, shop: pgShop, sealer });
const tokens: TokenStore = onPg.tokens;
const inbox: StoredNotificationStore = onPg.servicePay;

const ordersSql = \`CREATE TABLE shop_orders (id text PRIMARY KEY, number text NOT NULL UNIQUE, \${onSqlite.serviceOrderColumnsSql})\`;
const connection = await freshSqliteDatabase([...onSqlite.serviceTablesSql, ordersSql]);
const db = new Kysely<ShopTables & ServiceDatabase>({ dialect: new SqliteDialect({ database: connection }) });
declare const sqliteShop: ShopCallbacks<typeof db>;
const adapter = onSqlite.kyselyServiceAdapter({ db, shop: sqliteShop, sealer, ordersTable: "shop_orders" });
const tradeIns: TradeInRegistrationStore = adapter.tradeIns;
await onSqlite.sqliteTransaction(db, (q) => q.selectFrom("shop_orders").select("status").execute());
// @ts-expect-error: deep imports are closed (the exports map lists four entries)
import("@service-integration/kysely-adapter/dist/core.js");
export { inbox, tokens, tradeIns };
`,
};

function capture(command, args, options) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  return { ok: result.status === 0, out: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

function fail(message) {
  console.error(`✗ ${message}`);
  process.exit(1);
}

/** Packs `pkg` into `work` (scripts/lib/pack.mjs); a failed check ends the run. */
function pack(pkg, work) {
  try {
    return packWorkspace(pkg.name, work, pkg);
  } catch (error) {
    fail(error.message);
  }
}

function checkPackage(pkg) {
  const work = mkdtempSync(path.join(tmpdir(), "packages-check-"));
  try {
    const t0 = Date.now();
    // 1. The package's build and tarball (and those of the packages installed beside it).
    const { tarball, info, files } = pack(pkg, work);
    const besides = (pkg.withTarballsOf ?? []).map((other) => pack(other, work).tarball);
    console.log(
      `${info.filename}: ${files.length} files, ${(info.size / 1024).toFixed(1)} kB packed`,
    );

    // 2. Lint the tarball: the package.json fields and exports (publint, warnings as errors) and
    // every entry's types as each TypeScript resolution mode sees them (attw; ESM only, so the
    // CommonJS and node10 resolutions are out of scope: the esm-only profile).
    run(bin("publint"), ["run", tarball, "--strict"]);
    run(bin("attw"), [tarball, "--profile", "esm-only", "--format", "table-flipped"]);

    // 3. Install the tarball offline into an empty consumer; the peers come from this repository.
    // The consumer gets a lockfile cut from this repository's (scripts/lib/lockfile-subset.mjs):
    // without one, `npm install --offline` needs each dependency's registry document, which a new
    // machine's npm cache lacks (it holds only the tarballs this repository's lockfile installed),
    // docs/decisions/offline-installs.md.
    const consumer = path.join(work, "consumer");
    mkdirSync(consumer);
    const local = {};
    for (const [other, file] of [
      [pkg, tarball],
      ...(pkg.withTarballsOf ?? []).map((o, i) => [o, besides[i]]),
    ])
      local[other.name] = {
        resolved: `file:${path.relative(consumer, file)}`,
        manifest: JSON.parse(readFileSync(path.join(root, other.dir, "package.json"), "utf8")),
      };
    const manifest = {
      name: "consumer",
      version: "0.0.0",
      private: true,
      type: "module",
      dependencies: Object.fromEntries(
        Object.entries(local).map(([name, l]) => [name, l.resolved]),
      ),
    };
    const rootLock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify(manifest, null, 2));
    writeFileSync(
      path.join(consumer, "package-lock.json"),
      JSON.stringify(lockfileFor(rootLock, manifest, local, { peers: false }), null, 2),
    );
    run("npm", ["ci", "--offline", "--no-audit", "--no-fund", "--legacy-peer-deps"], {
      cwd: consumer,
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (const peer of pkg.peers) {
      const target = path.join(consumer, "node_modules", peer);
      mkdirSync(path.dirname(target), { recursive: true });
      symlinkSync(path.join(root, "node_modules", peer), target);
    }

    // 4. Each entry from plain Node, with the conditions a bundler would give it.
    for (const entry of pkg.entries) {
      const id = `${pkg.name}${entry.spec}`;
      const script = `const m = await import(${JSON.stringify(id)});
const missing = ${JSON.stringify(entry.exports)}.filter((name) => !(name in m));
if (missing.length) throw new Error("missing exports: " + missing.join(", "));
console.log(${JSON.stringify(id)} + ": " + Object.keys(m).length + " exports");`;
      const args = [...entry.conditions.map((c) => `--conditions=${c}`), "--input-type=module"];
      const imported = capture(process.execPath, [...args, "-e", script], { cwd: consumer });
      if (!imported.ok) fail(`import ${id}:\n${imported.out}`);
      process.stdout.write(imported.out);
    }
    const installed = path.join(consumer, "node_modules", pkg.name);
    if (pkg.reactEntry) {
      // Each module /react re-exports keeps its "use client" directive in the tarball (tsc keeps a
      // directive prologue; a bundler that dropped it would render them as server components).
      for (const [, module] of readFileSync(path.join(installed, "dist/react.js"), "utf8").matchAll(
        /from "\.\/([^"]+)"/g,
      )) {
        const first = readFileSync(path.join(installed, "dist", module), "utf8").split("\n")[0];
        if (first !== '"use client";') fail(`dist/${module} lost its "use client" directive`);
      }
      console.log(`${pkg.name}/react: every module starts with "use client"`);
      // Without the condition, /server refuses to load: the server-only guard shipped.
      const guarded = capture(
        process.execPath,
        ["--input-type=module", "-e", `await import("${pkg.name}/server")`],
        { cwd: consumer },
      );
      if (guarded.ok || !/Client Component/.test(guarded.out))
        fail(`${pkg.name}/server loaded outside a react-server environment`);
      console.log(`${pkg.name}/server without react-server: refused (server-only)`);
    }

    // 5. A consumer file type-checked against the installed package (nodenext, strict).
    writeFileSync(path.join(consumer, "consumer.ts"), pkg.consumer);
    writeFileSync(
      path.join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["dom", "ES2023"],
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: pkg.skipLibCheck ?? false,
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", consumer]);
    console.log(`consumer.ts type-checks against ${info.filename}`);

    // 6. The package's tables made by the integrator's own migration tool from its schema.
    for (const [dialect, schema] of Object.entries(pkg.migrations ?? {})) {
      const dir = path.join(consumer, `schema-${dialect}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "schema.ts"), schema);
      writeFileSync(
        path.join(dir, "drizzle.config.mjs"),
        `export default { dialect: "${dialect}", schema: "./schema.ts", out: "./drizzle" };\n`,
      );
      const generated = capture(
        process.execPath,
        [
          path.join(consumer, "node_modules/drizzle-kit/bin.cjs"),
          "generate",
          "--config",
          "drizzle.config.mjs",
        ],
        { cwd: dir },
      );
      const sqlFile = generated.ok
        ? readdirSync(path.join(dir, "drizzle")).find((f) => f.endsWith(".sql"))
        : undefined;
      const sql = sqlFile ? readFileSync(path.join(dir, "drizzle", sqlFile), "utf8") : "";
      if (!/CREATE TABLE [`"]service_tokens[`"]/.test(sql) || !/[`"]cart_id[`"]/.test(sql))
        fail(`drizzle-kit generate (${dialect}) over the package's schema:\n${generated.out}`);
      console.log(
        `drizzle-kit generate (${dialect}): the package's tables and the orders' columns`,
      );
    }
    console.log(`✓ ${pkg.name}: packed, linted, installed and imported in ${Date.now() - t0} ms`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// `node scripts/packages-check.mjs <package name>` checks that one package alone.
const only = process.argv[2];
for (const pkg of [KIT, DRIZZLE_ADAPTER, PRISMA_ADAPTER, KYSELY_ADAPTER])
  if (!only || pkg.name === only) checkPackage(pkg);
// The package's own manifest and the root's pin agree (a shop installs the version it names).
const version = JSON.parse(readFileSync(path.join(root, KIT.dir, "package.json"), "utf8")).version;
// (The Drizzle adapter is not a dependency of this shop yet: nothing of the root pins it.)
const pinned = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).dependencies[
  KIT.name
];
if (pinned !== version) fail(`package.json pins ${KIT.name} ${pinned}, the package is ${version}`);
