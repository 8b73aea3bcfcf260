import type { Hono } from "hono";
import type { Clock } from "./clock";
import type { AccessToken, Seed } from "./domain";
import type { Faults } from "./faults";
import type { Journal } from "./journal";
import type { RateLimiter } from "./rate-limit";
import type { Store } from "./state/store";

/** Per-request values set by the middleware. */
export interface EmulatorVariables {
  /** The validated bearer token (set by requireBearer). */
  auth: AccessToken;
  /** Body of the answer, recorded by the journal without re-reading the response. */
  journalBody: unknown;
  /** OAuth client of the request, for the journal. */
  clientId: string;
  /** What the route decided about the request, for the journal (e.g. a refused observation). */
  journalMeta: Record<string, unknown>;
  /** The merchant the request is authenticated as or addressed to, when known (set before the
   *  faults are matched: merchant-scoped faults and resets go by it). */
  merchantId: string;
}

export type EmulatorEnv = { Variables: EmulatorVariables };
export type EmulatorApp = Hono<EmulatorEnv>;

export interface EmulatorConfig {
  seed: Seed;
  /** Requests per minute per OAuth client (contract: 100). Settable through the control API. */
  rateLimitPerMinute: number;
  /** When on, every service route answers 503 (the control API keeps working). */
  maintenance: boolean;
  /** Seconds sent in Retry-After with the maintenance 503. */
  maintenanceRetryAfter: number;
  journalCapacity: number;
  /** Seed of the PRNG behind probabilistic faults. */
  faultSeed: number;
  /** Log each request to stdout. */
  log: boolean;
  /** A candidate SDK bundle (path or http(s) URL) served instead of the built-in SDK. */
  sdk?: string;
  /**
   * Host names (without port) the control API answers to. A page on another site that points
   * its own name at 127.0.0.1 (DNS rebinding) reaches the emulator as same-origin, but with its
   * own name in `Host`; only these names are this machine's own tools. Default: loopback names.
   */
  controlHosts: string[];
  /** The readiness report's slow-network check sends a notification's body in four pieces this
   *  far apart (ms; 500 by default, a receiver's patience as a slow network tries it). */
  slowSendGapMs: number;
}

/** Everything a route module needs. */
export interface EmulatorContext {
  state: Store;
  clock: Clock;
  journal: Journal;
  faults: Faults;
  rateLimiter: RateLimiter;
  config: EmulatorConfig;
  /** Registers a module's own reset (e.g. the webhook queue); returns an unsubscribe. */
  onReset(listener: () => void): () => void;
  /** Runs a listener first thing in every reset, while the journal still holds the run so far. */
  onBeforeReset(listener: () => void): () => void;
  /** Back to the seed: state, clock, journal, faults, limits, then every onReset listener. */
  reset(): void;
  /** How many resets so far: a request that was in flight across one belongs to the run the
   *  reset ended, so it is neither journaled nor answered from the new state. */
  readonly resets: number;
  /**
   * One merchant back to its seed (or creation) state: its tokens, sessions, trade-ins, orders,
   * faults, journal entries, clock and rate-limit windows, then every onMerchantReset listener
   * (its webhook queue…). Other merchants keep everything.
   */
  resetMerchant(merchantId: string): void;
  /** Registers a module's own reset of one merchant's part; returns an unsubscribe. */
  onMerchantReset(listener: (merchantId: string) => void): () => void;
  /** The run a request of this merchant belongs to: it changes with every reset and with every
   *  reset of that merchant (without a merchant: with every reset only). */
  runOf(merchantId?: string): string;
}

/**
 * A piece of the emulator: mounts its routes on the app, and may run something while the
 * server listens (the webhook dispatcher) and clear its own state on reset.
 */
export interface EmulatorModule {
  name: string;
  mount(app: EmulatorApp, ctx: EmulatorContext): void;
  start?(ctx: EmulatorContext): void;
  stop?(): void | Promise<void>;
}
