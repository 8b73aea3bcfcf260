import "server-only";
import { z } from "zod";
import { TOKEN_KEY_MIN_LENGTH } from "./token-sealing.js";

/**
 * Service settings, read from the environment only.
 * Why: the contract's Versioning section says staging and production differ only in
 * `{base_url}`, `{assets_url}` and credentials, so these six values are the whole switch; the
 * seventh, `SERVICE_TOKEN_KEY`, is the shop's own key for the tokens it stores (token-sealing.ts).
 * Outside production the non-secret values fall back to the bundled emulator's seed (the demo's
 * values, DEMO_SERVICE_SETTINGS); with NODE_ENV=production nothing falls back: a shop that forgot
 * one would otherwise talk to localhost as `demo-client` (docs/decisions/production-settings.md).
 * The three secrets never have a default (quality bar: secrets only from the environment).
 */
const url = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/ }))
  // Paths are appended as "/core/…", so a trailing slash on the base would double it.
  .transform((value) => value.replace(/\/+$/, ""));

const nonEmpty = z.string().trim().min(1);

/** The demo's values: the bundled emulator's seed, as .env.example sets them. Defaults only
 *  outside production (the demo and the tests); production must set every one. */
export const DEMO_SERVICE_SETTINGS = {
  /** The service API's `{base_url}`: the local emulator. */
  SERVICE_API_BASE_URL: "http://localhost:4010",
  /** `{assets_url}`: the emulator's SDK. */
  SERVICE_ASSETS_URL: "http://localhost:4010/assets",
  /** The OAuth client id of the emulator's seed. */
  SERVICE_CLIENT_ID: "demo-client",
  /** The merchant user of the password grant. */
  SERVICE_USERNAME: "merchant-admin",
  /** The merchant id the SDK is configured with. */
  SERVICE_MERCHANT_ID: "m_demo",
  /** The SDK's `products`: valuations and Service Pay (`ep1`). */
  SERVICE_PRODUCTS: "valuations+ep1",
  /** The order made on ready-to-place-order (a pending order), or `webhook`. */
  SERVICE_ORDER_CREATION: "ready_to_place_order",
} as const;

/** Every setting the integration reads; with NODE_ENV=production each one must be set. */
export const SERVICE_SETTING_NAMES = [
  "SERVICE_API_BASE_URL",
  "SERVICE_ASSETS_URL",
  "SERVICE_CLIENT_ID",
  "SERVICE_CLIENT_SECRET",
  "SERVICE_USERNAME",
  "SERVICE_PASSWORD",
  "SERVICE_TOKEN_KEY",
  "SERVICE_MERCHANT_ID",
  "SERVICE_PRODUCTS",
  "SERVICE_ORDER_CREATION",
] as const;

type Env = Record<string, string | undefined>;

/** Whether demo defaults are refused: the shop runs as production (`next start`, a host). */
export function isProduction(env: Env): boolean {
  return env.NODE_ENV === "production";
}

/** The demo's values outside production (the demo and the tests), none in it. */
export function demoSettings(env: Env): Partial<typeof DEMO_SERVICE_SETTINGS> {
  return isProduction(env) ? {} : DEMO_SERVICE_SETTINGS;
}

const serviceConfigSchema = z.object({
  SERVICE_API_BASE_URL: url,
  SERVICE_ASSETS_URL: url,
  SERVICE_CLIENT_ID: nonEmpty,
  SERVICE_CLIENT_SECRET: nonEmpty,
  SERVICE_USERNAME: nonEmpty,
  SERVICE_PASSWORD: nonEmpty,
  SERVICE_TOKEN_KEY: z
    .string()
    .min(TOKEN_KEY_MIN_LENGTH, `must be at least ${TOKEN_KEY_MIN_LENGTH} characters`),
});

/**
 * At server start: with NODE_ENV=production, refuses to go on while any service setting is
 * unset or invalid, naming every missing one in one message (never a value). Outside production
 * it does nothing: the demo's values stand in. (The browser's three are checked in sdk-config.ts.)
 */
export function assertProductionServiceSettings(env: Env = process.env): void {
  if (!isProduction(env)) return;
  const missing = SERVICE_SETTING_NAMES.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new ServiceConfigError(
      `NODE_ENV=production needs every service setting; missing: ${missing.join(", ")} (see docs/integrating.md, Configure)`,
    );
  }
  readServiceConfig(env);
  readOrderCreationMode(env);
}

/** The integration's settings (SERVICE_*), checked (readServiceConfig). */
export interface ServiceConfig {
  /** `{base_url}` without a trailing slash. */
  apiBaseUrl: string;
  /** `{assets_url}` without a trailing slash; the SDK lives at `${assetsUrl}/v1/main.js`. */
  assetsUrl: string;
  /** SERVICE_CLIENT_ID: the OAuth client's id. */
  clientId: string;
  /** SERVICE_CLIENT_SECRET: the OAuth client's secret. */
  clientSecret: string;
  /** SERVICE_USERNAME: the merchant user of the password grant. */
  username: string;
  /** SERVICE_PASSWORD: that user's password. */
  password: string;
  /** Seals the stored service tokens (token-sealing.ts). */
  tokenKey: string;
}

/** A setting is missing or malformed (the message names which, never its value). */
export class ServiceConfigError extends Error {
  /** Always "ServiceConfigError". */
  override name = "ServiceConfigError";
}

/** The settings from `env`, checked; the demo's values outside production; throws
 *  ServiceConfigError naming what is missing or malformed. */
export function readServiceConfig(env: Env = process.env): ServiceConfig {
  // An empty variable (e.g. `SERVICE_API_BASE_URL=`) means "unset": the demo's value outside
  // production, required in it.
  const present = {
    ...demoSettings(env),
    ...Object.fromEntries(
      Object.entries(env).filter(([key, value]) => key.startsWith("SERVICE_") && value !== ""),
    ),
  };
  const parsed = serviceConfigSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join(".");
      // Never echo values: two of these are secrets.
      return issue.code === "invalid_type" && issue.input === undefined
        ? `${name} is required`
        : `${name}: ${issue.message}`;
    });
    throw new ServiceConfigError(
      `Invalid service configuration (see .env.example): ${problems.join("; ")}`,
    );
  }
  const v = parsed.data;
  return {
    apiBaseUrl: v.SERVICE_API_BASE_URL,
    assetsUrl: v.SERVICE_ASSETS_URL,
    clientId: v.SERVICE_CLIENT_ID,
    clientSecret: v.SERVICE_CLIENT_SECRET,
    username: v.SERVICE_USERNAME,
    password: v.SERVICE_PASSWORD,
    tokenKey: v.SERVICE_TOKEN_KEY,
  };
}

/**
 * `SERVICE_ORDER_CREATION`: `ready_to_place_order` (the demo's value: a pending order is created
 * when the SDK's ready-to-place-order listener fires) or `webhook` (the contract's default: the
 * order is created when the webhook arrives). Required with NODE_ENV=production; anything else is
 * refused loudly rather than guessed (docs/decisions/order-creation-mode.md).
 */
export function readOrderCreationMode(env: Env = process.env): "ready_to_place_order" | "webhook" {
  const value = env.SERVICE_ORDER_CREATION?.trim() || demoSettings(env).SERVICE_ORDER_CREATION;
  if (value === undefined) {
    throw new ServiceConfigError(
      "SERVICE_ORDER_CREATION is required with NODE_ENV=production: ready_to_place_order or webhook (see docs/integrating.md, Setting: SERVICE_ORDER_CREATION)",
    );
  }
  if (value !== "ready_to_place_order" && value !== "webhook") {
    throw new ServiceConfigError(
      "SERVICE_ORDER_CREATION must be ready_to_place_order or webhook (see docs/integrating.md, Setting: SERVICE_ORDER_CREATION)",
    );
  }
  return value;
}
