import "server-only";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { StoredTokens, TokenStore } from "@/lib/service/shop-ports";

/**
 * TokenStore on the `ServiceToken` table (prisma/schema.prisma), so every server instance sees
 * the same tokens. One row per API user; "default" is the merchant's single admin login.
 * Wire it with `createPrismaTokenStore(getDb())` from `@/lib/db/client`.
 */
export function createPrismaTokenStore(
  db: Pick<PrismaClient, "serviceToken">,
  id = "default",
): TokenStore {
  return {
    async load() {
      const row = await db.serviceToken.findUnique({ where: { id } });
      if (!row) return null;
      const { accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt } = row;
      return { accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt };
    },
    async save(tokens: StoredTokens) {
      // Upsert: the first login creates the row, every refresh replaces it in one statement.
      await db.serviceToken.upsert({ where: { id }, create: { id, ...tokens }, update: tokens });
    },
    async clear() {
      await db.serviceToken.deleteMany({ where: { id } });
    },
  };
}
