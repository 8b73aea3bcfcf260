// One storefront + emulator pair per Playwright worker. The control API resets, faults and moves
// the clock of a whole emulator, and the shop binds one merchant (SERVICE_* settings), so two
// journeys running at once never share either: worker k (its parallel index, stable across
// worker restarts) drives the shop on 3800 + k, the emulator on 4800 + k, and its own database.
// Never the demo's 3000 and 4010 (nor its dev.db): `npm test` runs while `npm run demo` is up.
// playwright.config.ts starts every stack before the first test; a worker reads its own through
// TEST_PARALLEL_INDEX, which Playwright sets in each worker process (the config file too is
// evaluated there, so its baseURL is the worker's shop).
import { availableParallelism } from "node:os";

export interface Stack {
  index: number;
  shopPort: number;
  shopUrl: string;
  /** 0 when no bundled emulator runs (a staging service, EMULATOR_PORT=0) */
  emulatorPort: number;
  emulatorUrl: string;
  /** where the shop loads the SDK from: the stack's emulator, or the staging service's
   *  SERVICE_ASSETS_URL */
  assetsUrl: string | undefined;
  /** SQLite file of this stack's shop, relative to the repository */
  databaseFile: string;
}

/** The first stack's ports when nothing moves them: a range the demo (3000, 4010), the cluster
 *  project (3300-3302, 3399, 4300), the SDK page suite (4110), `npm run bench:pages` (3100,
 *  3101, 4210) and the second host (5510, 5520) never use, eight stacks wide. */
export const DEFAULT_SHOP_PORT = 3800;
export const DEFAULT_EMULATOR_PORT = 4800;
/** E2E_SHOP_PORT and EMULATOR_PORT move them (a second checkout running its suite beside this
 *  one); EMULATOR_PORT=0: no bundled emulator (a staging service). */
const SHOP_BASE_PORT = Number(process.env.E2E_SHOP_PORT ?? DEFAULT_SHOP_PORT);
const EMULATOR_BASE_PORT = Number(process.env.EMULATOR_PORT ?? DEFAULT_EMULATOR_PORT);

export function stackOf(index: number): Stack {
  const emulatorPort = EMULATOR_BASE_PORT > 0 ? EMULATOR_BASE_PORT + index : 0;
  return {
    index,
    shopPort: SHOP_BASE_PORT + index,
    shopUrl: `http://localhost:${SHOP_BASE_PORT + index}`,
    emulatorPort,
    emulatorUrl: `http://localhost:${emulatorPort}`,
    assetsUrl:
      emulatorPort > 0 ? `http://localhost:${emulatorPort}/assets` : process.env.SERVICE_ASSETS_URL,
    // A checkout whose shops were moved (E2E_SHOP_PORT) has databases of its own as well.
    databaseFile:
      SHOP_BASE_PORT !== DEFAULT_SHOP_PORT
        ? `e2e-${SHOP_BASE_PORT + index}.db`
        : index === 0
          ? "e2e.db"
          : `e2e-${index + 1}.db`,
  };
}

/**
 * Workers a browser suite runs by default: 2, or 1 on a machine (or a process pinned, as
 * `measure --one-core` does) with one core. Each worker drives a browser and a storefront + emulator
 * stack; two of them on one core halve each journey's pace against its time limit.
 */
export function machineWorkers(): number {
  return Math.min(2, availableParallelism());
}

/** How many stacks (and workers) the suite runs: E2E_WORKERS, default machineWorkers(); one
 *  against a staging service, whose single merchant and webhook address the workers would share. */
export function stackCount(): number {
  if (EMULATOR_BASE_PORT <= 0) return 1;
  const fallback = machineWorkers();
  const wanted = Number(process.env.E2E_WORKERS ?? fallback);
  return Number.isInteger(wanted) && wanted >= 1 && wanted <= 8 ? wanted : fallback;
}

/** The stack of this worker (stack 0 in the runner process, which runs no test). */
export const STACK = stackOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));

/**
 * The one web server of a browser run: every stack's storefront, and its emulator unless a
 * staging service stands in, started together by scripts/e2e-stacks.mjs, which says when every
 * one answers.
 */
export function stacksWebServer(stacks: Stack[]) {
  return {
    name: "stacks",
    command: "node scripts/e2e-stacks.mjs",
    wait: { stdout: /^every stack answers/m },
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: { E2E_STACKS: JSON.stringify(stacks) },
  };
}
