import { z } from "zod";

// The shop's own settings. SERVICE_* settings belong to packages/kit/src/config.ts.
const schema = z.object({
  DATABASE_URL: z
    .string()
    .regex(
      /^(file:|postgres(ql)?:\/\/)/,
      "must be a SQLite URL such as file:./dev.db or a PostgreSQL URL such as postgresql://user@host:5432/shop",
    ),
  SESSION_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (it seals the session cookie)"),
  ADMIN_EMAIL: z.email("must be an email address"),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters"),
  SHOP_BASE_URL: z.url("must be an absolute URL such as http://localhost:3000"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Proxies in front of the shop that append to X-Forwarded-For (lib/auth/client-address.ts).
   *  An empty value is no value: unset, which production refuses (parseConfig). */
  TRUSTED_PROXY_HOPS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number()
      .int("must be a whole number of proxies")
      .min(0)
      .max(10, "must be 10 or fewer")
      .optional(),
  ),
  /** The most rows the login throttle's table holds (lib/auth/login-throttle.ts); past it a new
   *  address is not counted, an existing account still is (docs/decisions/login-throttle-storage.md). */
  LOGIN_THROTTLE_MAX_ROWS: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number("must be a whole number of rows")
      .int("must be a whole number of rows")
      .min(100, "must be at least 100")
      .max(10_000_000, "must be 10,000,000 or fewer")
      .default(10_000),
  ),
  /** The most open carts of shoppers nobody signed in to (lib/shop/cart.ts): past it the one
   *  least recently changed, with no payment started, is dropped (docs/security.md, Bounded storage). */
  ANONYMOUS_CARTS_MAX: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.coerce
      .number("must be a whole number of carts")
      .int("must be a whole number of carts")
      .min(100, "must be at least 100")
      .max(10_000_000, "must be 10,000,000 or fewer")
      .default(50_000),
  ),
});

/** What each value of TRUSTED_PROXY_HOPS means (docs/decisions/client-address.md): said in the
 *  production refusal, in .env.example and in the line the server logs at start. */
export const TRUSTED_PROXY_HOPS_VALUES =
  "0: the shop is reached directly, and a client that writes its own X-Forwarded-For chooses the address the per-address login throttle counts (the per-account lock still holds); " +
  "N (1 to 10): N reverse proxies stand in front of the shop, each appending the address it saw to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for), and the login throttle counts the entry N from the right";

/** The one line a server logs at start: what the configured value means for the throttle. */
export function trustedProxyHopsMeaning(hops: number): string {
  return hops === 0
    ? "TRUSTED_PROXY_HOPS=0: the shop is reached directly; a client that writes its own X-Forwarded-For chooses the address the per-address login throttle counts (the per-account lock still holds; docs/decisions/client-address.md)"
    : `TRUSTED_PROXY_HOPS=${hops}: ${hops} reverse ${hops === 1 ? "proxy appends" : "proxies append"} to X-Forwarded-For; the login throttle counts the entry ${hops} from the right, never one the client wrote (docs/decisions/client-address.md)`;
}

export type ShopConfig = Omit<z.infer<typeof schema>, "TRUSTED_PROXY_HOPS"> & {
  TRUSTED_PROXY_HOPS: number;
};

/**
 * Reads and validates the environment; throws one readable message naming every bad value.
 * With NODE_ENV=production TRUSTED_PROXY_HOPS must be set, 0 included: left unset, a shop
 * reached directly would silently let clients choose their throttle address (the issue
 * docs/decisions/client-address.md names), as missing service settings would silently talk to
 * the demo's emulator (docs/decisions/production-settings.md). Elsewhere it defaults to 0.
 */
export function parseConfig(env: Record<string, string | undefined>): ShopConfig {
  const result = schema.safeParse(env);
  const lines = result.success
    ? []
    : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  if (env.NODE_ENV === "production" && !env.TRUSTED_PROXY_HOPS?.trim()) {
    lines.push(
      `  TRUSTED_PROXY_HOPS: required with NODE_ENV=production, 0 included (${TRUSTED_PROXY_HOPS_VALUES})`,
    );
  }
  if (!result.success || lines.length > 0) {
    throw new Error(`Invalid shop configuration (see .env.example):\n${lines.join("\n")}`);
  }
  return {
    ...result.data,
    SHOP_BASE_URL: result.data.SHOP_BASE_URL.replace(/\/+$/, ""),
    TRUSTED_PROXY_HOPS: result.data.TRUSTED_PROXY_HOPS ?? 0,
  };
}

let cached: ShopConfig | undefined;

export function getConfig(): ShopConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
