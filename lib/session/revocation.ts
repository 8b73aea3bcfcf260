import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { randomHex32, SESSION_TTL_SECONDS, type ShopSessionData } from "./session-data";

export type RevocationReason = "login" | "logout" | "admin_login" | "admin_sign_out";

/** Only a hash of the token is stored: the revocation list gives no cookie away. */
function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether the cookie's token was revoked (by any instance: the list is in the database). */
export async function isRevoked(token: string): Promise<boolean> {
  const row = await getDb().revokedSession.findUnique({
    where: { tokenHash: tokenHash(token) },
    select: { tokenHash: true },
  });
  return row !== null;
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
