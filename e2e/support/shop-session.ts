// The shopper's raw session identity, read the way only the shop's server can: by unsealing the
// httpOnly `shop_session` cookie with SESSION_SECRET (the value the suite's storefront runs with,
// from .env). Tests use it to prove the raw session id never reaches the service.
import { existsSync } from "node:fs";
import path from "node:path";
import type { BrowserContext } from "@playwright/test";
import Database from "better-sqlite3";
import { sealData, unsealData } from "iron-session";
import {
  randomHex32,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  type ShopSessionData,
} from "../../lib/session/session-data";
import { STACK } from "./stack";

export { SESSION_COOKIE };

export function sessionSecret(): string {
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
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error("no shop_session cookie in this browser context");
  const data = await unsealData<{ sessionId?: string; salt?: string }>(cookie.value, {
    password: sessionSecret(),
  });
  if (!data.sessionId || !data.salt) throw new Error("the session cookie carries no identity");
  return { sessionId: data.sessionId, salt: data.salt };
}

/**
 * The cookie of a shopper who logged in as `email` and has not browsed yet: what the login form
 * would leave in the browser (lib/shop/actions/account-actions.ts: a fresh identity and token,
 * the customer's id), sealed with the storefront's SESSION_SECRET. Journeys that are not about
 * logging in start from it instead of typing the password again (the ones that are, and the
 * go-live scenarios, still use the form). The customer's id is read from this worker's database.
 */
export async function signedInShopSession(email: string): Promise<string> {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    const customer = db.prepare("SELECT id FROM Customer WHERE email = ?").get(email) as
      | { id: string }
      | undefined;
    if (!customer) throw new Error(`no customer ${email} in ${STACK.databaseFile}`);
    const data: ShopSessionData = {
      sessionId: randomHex32(),
      salt: randomHex32(),
      token: randomHex32(),
      customerId: customer.id,
    };
    return await sealData(data, { password: sessionSecret(), ttl: SESSION_TTL_SECONDS });
  } finally {
    db.close();
  }
}
