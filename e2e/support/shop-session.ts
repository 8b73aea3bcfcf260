// The shopper's raw session identity, read the way only the shop's server can: by unsealing the
// httpOnly `shop_session` cookie with SESSION_SECRET (the value the suite's storefront runs with,
// from .env). Tests use it to prove the raw session id never reaches the service.
import { existsSync } from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import { unsealData } from "iron-session";

function sessionSecret(): string {
  if (!process.env.SESSION_SECRET) {
    const envFile = path.resolve(import.meta.dirname, "../../.env");
    if (existsSync(envFile)) process.loadEnvFile(envFile);
  }
  const secret = process.env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set and .env has none");
  return secret;
}

export async function rawShopSession(
  context: BrowserContext,
): Promise<{ sessionId: string; salt: string }> {
  const cookie = (await context.cookies()).find((c) => c.name === "shop_session");
  if (!cookie) throw new Error("no shop_session cookie in this browser context");
  const data = await unsealData<{ sessionId?: string; salt?: string }>(cookie.value, {
    password: sessionSecret(),
  });
  if (!data.sessionId || !data.salt) throw new Error("the session cookie carries no identity");
  return { sessionId: data.sessionId, salt: data.salt };
}
