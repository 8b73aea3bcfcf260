import "server-only";
import type { StoredTokens, TokenStore } from "@service-integration/kit";
import type { TokenSealer } from "@service-integration/kit/server";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createLeases } from "./leases";

/**
 * TokenStore on the `ServiceToken` table (prisma/schema.prisma), so every server instance sees
 * the same tokens. One row per API user; "default" is the merchant's single admin login. Its
 * renewal lease is a `Lease` row, "service-token-renewal:<id>" (./leases.ts).
 * The access token, refresh token and user id (half of the webhook secret) are stored sealed
 * (packages/kit/src/token-sealing.ts); a row that does not open under the current key reads as no
 * tokens, so the token manager logs in again and replaces it.
 * Wire it with `createPrismaTokenStore(getDb(), createTokenSealer(config.tokenKey))`.
 */
export function createPrismaTokenStore(
  db: Pick<PrismaClient, "serviceToken" | "lease">,
  sealer: TokenSealer,
  id = "default",
): TokenStore {
  const leases = createLeases(db);
  const leaseName = `service-token-renewal:${id}`;
  const open = (field: SealedColumn, value: string) => sealer.open(`${id}:${field}`, value);
  return {
    async load() {
      const row = await db.serviceToken.findUnique({ where: { id } });
      if (!row) return null;
      const accessToken = open("accessToken", row.accessToken);
      const refreshToken = open("refreshToken", row.refreshToken);
      const userId = open("userId", row.userId);
      if (accessToken === null || refreshToken === null || userId === null) return null;
      const { merchantId, scope, accessExpiresAt } = row;
      return { accessToken, refreshToken, userId, merchantId, scope, accessExpiresAt };
    },
    async save(tokens: StoredTokens) {
      const sealed = sealTokenRow(sealer, id, tokens);
      // Upsert: the first login creates the row, every refresh replaces it in one statement.
      await db.serviceToken.upsert({ where: { id }, create: { id, ...sealed }, update: sealed });
    },
    acquireRenewalLease: (holder, ttlMs) => leases.acquire(leaseName, holder, ttlMs),
    releaseRenewalLease: (holder) => leases.release(leaseName, holder),
  };
}

type SealedColumn = "accessToken" | "refreshToken" | "userId";

/** The `ServiceToken` row's values for `tokens`, secrets sealed. The row id is bound in, so a
 *  sealed value opens only in its own row. Also used by the benchmarks to seed a token. */
export function sealTokenRow(sealer: TokenSealer, id: string, tokens: StoredTokens): StoredTokens {
  const seal = (field: SealedColumn) => sealer.seal(`${id}:${field}`, tokens[field]);
  return {
    ...tokens,
    accessToken: seal("accessToken"),
    refreshToken: seal("refreshToken"),
    userId: seal("userId"),
  };
}
