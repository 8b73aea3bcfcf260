import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";
import {
  randomHex32,
  replaceIdentity,
  SESSION_TTL_SECONDS,
  type ShopSessionData,
} from "./session-data";

export type RevocationReason = "login" | "logout" | "admin_login" | "admin_sign_out";

/** Only a hash of the token is stored: the revocation list gives no cookie away. */
function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether the cookie's token was revoked (by any instance: the list is in the database). */
export async function isRevoked(token: string): Promise<boolean> {
  // Asked on every request (proxy.ts): one raw statement by primary key. A model query is
  // compiled on every call by Prisma's WebAssembly query compiler, about 0.8 ms of CPU here
  // against about 0.1 ms for this.
  const rows = await getDb().$queryRaw<{ tokenHash: string }[]>`
    SELECT "tokenHash" FROM "RevokedSession" WHERE "tokenHash" = ${tokenHash(token)} LIMIT 1`;
  return rows.length > 0;
}

/**
 * Ends the cookie's current token on the server and gives the session a new one. Used at every
 * change of who the session belongs to, so a copy of the cookie from before the change is
 * anonymous after it. Rows older than the cookie lifetime are dropped on the way.
 */
export async function rotateToken(
  data: ShopSessionData,
  reason: RevocationReason,
  now = new Date(),
): Promise<void> {
  const db = getDb();
  if (data.token) {
    const hash = tokenHash(data.token);
    const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
    await db.revokedSession.upsert({
      where: { tokenHash: hash },
      create: { tokenHash: hash, reason, revokedAt: now, expiresAt },
      update: {},
    });
  }
  await db.revokedSession.deleteMany({ where: { expiresAt: { lt: now } } });
  data.token = randomHex32();
}

/**
 * Logout and admin sign-out: the session ends and a new identity starts. Only a signed-in
 * session's token is revoked (a row, kept for the cookie lifetime): a copy of that cookie would
 * otherwise still be signed in. An anonymous session has nothing a copy could reach after it
 * (and its cart and trade-in go with the identity), so ending one stores nothing: a flood of
 * logouts without a sign-in leaves the table as it was (docs/security.md, "Bounded storage").
 */
export async function endSession(
  data: ShopSessionData,
  reason: Extract<RevocationReason, "logout" | "admin_sign_out">,
  now = new Date(),
): Promise<void> {
  if (data.customerId || data.admin) await rotateToken(data, reason, now);
  replaceIdentity(data);
}

/** Who a sign-in makes the session belong to. */
export type SignedIn = { customerId: string } | { admin: true };

/**
 * A sign-in. A guest's session (or one already this person's) keeps its service identity, so the
 * cart and the trade-in valued before sign-in stay the shopper's (docs/decisions/session-identity.md);
 * a session signed in as anyone else (another customer, or the back office for a shopper and the
 * other way round) is ended and a new identity starts: nothing of theirs (cart, kept checkout,
 * trade-in, all keyed by the session id; contract, Session hash) reaches who signs in now. Either
 * way the token is replaced and the old one revoked, so a copy of the cookie from before is
 * anonymous after it. Returns whether the identity was replaced.
 */
export async function signInSession(
  data: ShopSessionData,
  who: SignedIn,
  reason: Extract<RevocationReason, "login" | "admin_login">,
  now = new Date(),
): Promise<boolean> {
  const someoneElse =
    "customerId" in who
      ? data.admin === true || (data.customerId !== undefined && data.customerId !== who.customerId)
      : data.customerId !== undefined;
  await rotateToken(data, reason, now);
  if (someoneElse) replaceIdentity(data);
  if ("customerId" in who) data.customerId = who.customerId;
  else data.admin = true;
  return someoneElse;
}
