// `service-integration-kit init` on temporary empty Next.js apps: what it writes for Drizzle and
// for Prisma, that a second run and --dry-run change nothing, that no ORM is an error naming
// both, and that what it writes type-checks against the packages (the repository's own
// node_modules, where the workspace links lead to their built dist/).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InitError, type InitOptions, init } from "./init.js";

const root = path.resolve(import.meta.dirname, "../../../..");
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** An empty Next.js app as create-next-app leaves it: package.json, tsconfig.json, app/. */
function emptyApp(
  dependencies: Record<string, string>,
  { src = false, alias = "@/*" }: { src?: boolean; alias?: string | null } = {},
): string {
  const dir = mkdtempSync(path.join(tmpdir(), "kit-init-"));
  made.push(dir);
  const base = src ? "src/" : "";
  mkdirSync(path.join(dir, base, "app"), { recursive: true });
  writeFileSync(path.join(dir, base, "app/page.tsx"), "export default function Page() {}\n");
  const paths = alias ? { [alias]: [`./${base}*`] } : undefined;
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "app", private: true, type: "module", dependencies }),
  );
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    // As create-next-app writes it (a comment included: tsconfig is JSONC).
    `{\n  // the app's own\n  "compilerOptions": ${JSON.stringify({
      target: "ES2022",
      lib: ["dom", "dom.iterable", "ES2023"],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: "esnext",
      moduleResolution: "bundler",
      esModuleInterop: true,
      isolatedModules: true,
      jsx: "react-jsx",
      paths,
    })},\n  "include": ["**/*.ts", "**/*.tsx"],\n}\n`,
  );
  return dir;
}

const DRIZZLE = { next: "16.4.5", "drizzle-orm": "0.45.4", "better-sqlite3": "12.11.1" };
const PRISMA = { next: "16.4.5", "@prisma/client": "6.19.3", "@prisma/adapter-pg": "6.19.3" };
const quiet: Pick<InitOptions, "out"> = { out: () => {} };

/** Every file under `dir` (but node_modules) with its text. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (name.startsWith("node_modules")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isFile()) files[name] = readFileSync(full, "utf8");
  }
  return files;
}

const ROUTES = [
  "app/api/service/shopper_data/route.ts",
  "app/api/service/purchase_data/route.ts",
  "app/api/service/checkout/route.ts",
  "app/api/service/pending-order/route.ts",
  "app/api/service/webhooks/order/route.ts",
  "app/api/service/jobs/trade-in-retry/route.ts",
  "app/api/service/jobs/notification-sweep/route.ts",
];
const EVERY_FILE = [
  ...ROUTES,
  "instrumentation.ts",
  "lib/service/wiring.ts",
  "lib/service/callbacks.ts",
];
/** ShopCallbacks' members (and ShopperSource's without loadCheckout), each a TODO in the file. */
const MEMBERS = [
  "openCartId",
  "createOrder",
  "dropOrder",
  "placedOrder",
  "shopper.customer",
  "shopper.openCart",
  "shopper.shippingMethod",
  "shopper.defaultShippingMethod",
  "identity.ofRequest",
];

describe("init on an empty Next.js app", () => {
  it("writes the routes, job routes, hook, wiring and callbacks for Drizzle (SQLite)", async () => {
    const app = emptyApp(DRIZZLE);
    const result = await init({ cwd: app, ...quiet });
    expect(result).toMatchObject({ orm: "drizzle", database: "sqlite", skipped: [] });
    expect(result.written).toEqual(EVERY_FILE);
    const files = snapshot(app);
    for (const route of ROUTES)
      expect(files[route]).toMatch(
        /^import \{ (serviceRoutes|jobRoutes) \} from "@\/lib\/service\/wiring";/,
      );
    expect(files["lib/service/wiring.ts"]).toContain(
      'from "@service-integration/drizzle-adapter/sqlite"',
    );
    const callbacks = files["lib/service/callbacks.ts"] ?? "";
    for (const member of MEMBERS)
      expect(callbacks).toContain(`throw new Error("TODO: ${member} (lib/service/callbacks.ts)")`);
    expect(files[".env.example"]).toMatch(/^SERVICE_TOKEN_KEY=/m);
    expect(result.envAdded).toContain("JOBS_SECRET");
  });

  it("writes them for Prisma (PostgreSQL) under src/, with relative imports when tsconfig has no alias", async () => {
    const app = emptyApp(PRISMA, { src: true, alias: null });
    const result = await init({ cwd: app, ...quiet });
    expect(result).toMatchObject({ orm: "prisma", database: "pg" });
    expect(result.written).toEqual(EVERY_FILE.map((file) => `src/${file}`));
    const files = snapshot(app);
    expect(files["src/app/api/service/webhooks/order/route.ts"]).toContain(
      'from "../../../../../lib/service/wiring"',
    );
    expect(files["src/instrumentation.ts"]).toContain('import("./lib/service/wiring")');
    expect(files["src/lib/service/wiring.ts"]).toContain(
      'from "@service-integration/prisma-adapter/pg"',
    );
  });

  it("uses the app's own alias when it is not @/ (the minimal shop's @mini/)", async () => {
    const app = emptyApp(DRIZZLE, { alias: "@mini/*" });
    await init({ cwd: app, ...quiet });
    expect(readFileSync(path.join(app, "app/api/service/checkout/route.ts"), "utf8")).toContain(
      'from "@mini/lib/service/wiring"',
    );
  });

  it("changes nothing when run twice: every file skipped and reported, no entry added twice", async () => {
    const app = emptyApp(DRIZZLE);
    await init({ cwd: app, ...quiet });
    const before = snapshot(app);
    const lines: string[] = [];
    const again = await init({ cwd: app, out: (line) => lines.push(line) });
    expect(again.written).toEqual([]);
    expect(again.skipped).toEqual(EVERY_FILE);
    expect(again.envAdded).toEqual([]);
    expect(snapshot(app)).toEqual(before);
    for (const file of EVERY_FILE) expect(lines.join("\n")).toContain(`skipped      ${file}`);
  });

  it("keeps a file of the app's own unless --force or a yes to the question", async () => {
    const app = emptyApp(DRIZZLE);
    const own = path.join(app, "lib/service/callbacks.ts");
    mkdirSync(path.dirname(own), { recursive: true });
    writeFileSync(own, "// mine\n");
    const asked: string[] = [];
    const kept = await init({
      cwd: app,
      ...quiet,
      ask: async (q) => {
        asked.push(q);
        return false;
      },
    });
    expect(asked).toEqual(["lib/service/callbacks.ts exists: overwrite it? (y/N) "]);
    expect(kept.skipped).toEqual(["lib/service/callbacks.ts"]);
    expect(readFileSync(own, "utf8")).toBe("// mine\n");
    await init({ cwd: app, ...quiet, ask: async () => true });
    expect(readFileSync(own, "utf8")).toContain("TODO");
    writeFileSync(own, "// mine\n");
    await init({ cwd: app, ...quiet, force: true });
    expect(readFileSync(own, "utf8")).toContain("TODO");
  });

  it("appends only the .env.example entries missing (one commented out counts as there)", async () => {
    const app = emptyApp(DRIZZLE);
    writeFileSync(
      path.join(app, ".env.example"),
      "DATABASE_URL=x\nSERVICE_CLIENT_ID=mine\n# JOBS_SECRET=",
    );
    const result = await init({ cwd: app, ...quiet });
    expect(result.envAdded).not.toContain("SERVICE_CLIENT_ID");
    expect(result.envAdded).not.toContain("JOBS_SECRET");
    const env = readFileSync(path.join(app, ".env.example"), "utf8");
    expect(env).toMatch(/^# JOBS_SECRET=\n# The service's settings/m);
    expect(env.match(/^SERVICE_CLIENT_ID=/gm)).toHaveLength(1);
    expect(env.match(/SERVICE_TOKEN_KEY=/g)).toHaveLength(1);
  });

  it("writes nothing with --dry-run, and lists what it would write", async () => {
    const app = emptyApp(PRISMA);
    const before = snapshot(app);
    const lines: string[] = [];
    const result = await init({ cwd: app, dryRun: true, out: (line) => lines.push(line) });
    expect(snapshot(app)).toEqual(before);
    expect(result.written).toEqual(EVERY_FILE);
    for (const file of EVERY_FILE) expect(lines.join("\n")).toContain(`would write  ${file}`);
  });

  it("refuses an app with no ORM, naming both, and honours --orm", async () => {
    const app = emptyApp({ next: "16.4.5" });
    const error = await init({ cwd: app, ...quiet }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InitError);
    expect((error as Error).message).toMatch(/Drizzle \(drizzle-orm.*Prisma \(@prisma\/client/);
    expect(snapshot(app)).not.toHaveProperty(["lib/service/wiring.ts"]);
    const forced = await init({ cwd: app, orm: "prisma", ...quiet });
    expect(forced.orm).toBe("prisma");
  });

  it("is the package's bin: no ORM exits 1 with the message (dist/, as the tarball has it)", () => {
    const app = emptyApp({ next: "16.4.5" });
    const bin = path.join(root, "packages/kit/dist/init/cli.js");
    const run = spawnSync(process.execPath, [bin, "init"], { cwd: app, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("no ORM found in package.json");
    const dry = spawnSync(process.execPath, [bin, "init", "--orm", "drizzle", "--dry-run"], {
      cwd: app,
      encoding: "utf8",
    });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("would write  lib/service/callbacks.ts");
  });
});

// One tsc program over three apps (each with its own alias, so their imports do not collide):
// a tsc run each took three times as long, most of it loading the same packages' types.
it("what init writes type-checks against the packages: Drizzle on SQLite and on PostgreSQL, Prisma under src/", async () => {
  const apps = [
    { name: "sqlite", deps: DRIZZLE, alias: "@/*", src: false },
    {
      name: "pg",
      deps: { ...DRIZZLE, "better-sqlite3": "", pg: "8.16.3" },
      alias: "@pg/*",
      src: false,
    },
    { name: "prisma", deps: PRISMA, alias: "@shop/*", src: true },
  ];
  const parent = mkdtempSync(path.join(tmpdir(), "kit-init-tsc-"));
  made.push(parent);
  const paths: Record<string, string[]> = {};
  for (const { name, deps, alias, src } of apps) {
    const app = emptyApp(
      Object.fromEntries(Object.entries(deps).filter(([, version]) => version)),
      { src, alias },
    );
    await init({ cwd: app, ...quiet });
    cpSync(app, path.join(parent, name), { recursive: true });
    paths[alias] = [`./${name}/${src ? "src/" : ""}*`];
  }
  // The repository's node_modules: the workspace packages' links lead to their dist/.
  symlinkSync(path.join(root, "node_modules"), path.join(parent, "node_modules"), "dir");
  const own = JSON.parse(
    readFileSync(path.join(parent, "sqlite/tsconfig.json"), "utf8")
      .replace(/\/\/.*\n/, "")
      .replace(/,(\s*})\s*$/, "$1"),
  );
  writeFileSync(
    path.join(parent, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { ...own.compilerOptions, paths }, include: ["*/**/*.ts"] }),
  );
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const run = spawnSync(process.execPath, [tsc, "--noEmit", "-p", parent], { encoding: "utf8" });
  expect(run.stdout + run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(readFileSync(path.join(parent, "prisma/src/lib/service/wiring.ts"), "utf8")).toContain(
    '"@service-integration/prisma-adapter/pg"',
  );
}, 40_000); // measured 12 s (niced, on the shared two-core machine), times three
