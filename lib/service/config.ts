import "server-only";
import { z } from "zod";
import { TOKEN_KEY_MIN_LENGTH } from "./token-sealing";

/**
 * Service settings, read from the environment only.
 * Why: the contract's Versioning section says staging and production differ only in
 * `{base_url}`, `{assets_url}` and credentials, so these six values are the whole switch; the
 * seventh, `SERVICE_TOKEN_KEY`, is the shop's own key for the tokens it stores (token-sealing.ts).
 * Non-secret defaults match .env.example (the bundled emulator's seed); the three secrets have no
 * default in code (quality bar: secrets only from the environment).
 */
const url = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/ }))
  // Paths are appended as "/core/…", so a trailing slash on the base would double it.
  .transform((value) => value.replace(/\/+$/, ""));

const nonEmpty = z.string().trim().min(1);

const serviceConfigSchema = z.object({
  SERVICE_API_BASE_URL: url.default("http://localhost:4010"),
  SERVICE_ASSETS_URL: url.default("http://localhost:4010/assets"),
  SERVICE_CLIENT_ID: nonEmpty.default("demo-client"),
  SERVICE_CLIENT_SECRET: nonEmpty,
  SERVICE_USERNAME: nonEmpty.default("merchant-admin"),
  SERVICE_PASSWORD: nonEmpty,
  SERVICE_TOKEN_KEY: z
    .string()
    .min(TOKEN_KEY_MIN_LENGTH, `must be at least ${TOKEN_KEY_MIN_LENGTH} characters`),
});

export interface ServiceConfig {
  /** `{base_url}` without a trailing slash. */
  apiBaseUrl: string;
  /** `{assets_url}` without a trailing slash; the SDK lives at `${assetsUrl}/v1/main.js`. */
  assetsUrl: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** Seals the stored service tokens (token-sealing.ts). */
  tokenKey: string;
}

export class ServiceConfigError extends Error {
  override name = "ServiceConfigError";
}

type Env = Record<string, string | undefined>;

export function readServiceConfig(env: Env = process.env): ServiceConfig {
  // An empty variable (e.g. `SERVICE_API_BASE_URL=`) means "unset", so the default applies.
  const present = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key.startsWith("SERVICE_") && value !== ""),
  );
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
 * `SERVICE_ORDER_CREATION`: `ready_to_place_order` (default: a pending order is created when the
 * SDK's ready-to-place-order listener fires) or `webhook` (the contract's default: the order is
 * created when the webhook arrives). Anything else is refused loudly rather than guessed
 * (docs/decisions/order-creation-mode.md).
 */
export function readOrderCreationMode(env: Env = process.env): "ready_to_place_order" | "webhook" {
  const value = env.SERVICE_ORDER_CREATION?.trim() || "ready_to_place_order";
  if (value !== "ready_to_place_order" && value !== "webhook") {
    throw new ServiceConfigError(
      "SERVICE_ORDER_CREATION must be ready_to_place_order or webhook (see docs/integrating.md, Setting: SERVICE_ORDER_CREATION)",
    );
  }
  return value;
}
