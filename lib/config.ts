import { z } from "zod";

// The shop's own settings. SERVICE_* settings belong to lib/service/config.ts.
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
  /** Proxies in front of the shop that append to X-Forwarded-For (lib/auth/client-address.ts). */
  TRUSTED_PROXY_HOPS: z.coerce
    .number()
    .int("must be a whole number of proxies")
    .min(0)
    .max(10, "must be 10 or fewer")
    .default(0),
});

export type ShopConfig = z.infer<typeof schema>;

/** Reads and validates the environment; throws one readable message naming every bad value. */
export function parseConfig(env: Record<string, string | undefined>): ShopConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid shop configuration (see .env.example):\n${lines.join("\n")}`);
  }
  return { ...result.data, SHOP_BASE_URL: result.data.SHOP_BASE_URL.replace(/\/+$/, "") };
}

let cached: ShopConfig | undefined;

export function getConfig(): ShopConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
