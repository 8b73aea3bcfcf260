import "server-only";
import type { TokenStore } from "@service-integration/kit";
import type { TokenSealer } from "@service-integration/kit/server";
import { db, transaction } from "../db";

// The service tokens in `tokens` (sealed: packages/kit/src/token-sealing.ts), the renewal lease in
// `leases` (one conditional UPDATE, else an INSERT whose primary key lets one holder win).

const ID = "default";
const LEASE = "service-token-renewal";

export function miniTokenStore(sealer: TokenSealer): TokenStore {
  const seal = (field: string, value: string) => sealer.seal(`${ID}:${field}`, value);
  const open = (field: string, value: string) => sealer.open(`${ID}:${field}`, value);
  return {
    async load() {
      const row = db().prepare("SELECT * FROM tokens WHERE id = ?").get(ID) as
        | (Record<string, string> & { accessExpiresAt: number })
        | undefined;
      if (!row) return null;
      const accessToken = open("accessToken", row.accessToken as string);
      const refreshToken = open("refreshToken", row.refreshToken as string);
      const userId = open("userId", row.userId as string);
      if (accessToken === null || refreshToken === null || userId === null) return null;
      return {
        accessToken,
        refreshToken,
        userId,
        merchantId: row.merchantId as string,
        scope: row.scope as string,
        accessExpiresAt: new Date(row.accessExpiresAt),
      };
    },
    async save(t) {
      await transaction(() =>
        db()
          .prepare(
            `INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET
              accessToken = excluded.accessToken, refreshToken = excluded.refreshToken,
              userId = excluded.userId, merchantId = excluded.merchantId, scope = excluded.scope,
              accessExpiresAt = excluded.accessExpiresAt`,
          )
          .run(
            ID,
            seal("accessToken", t.accessToken),
            seal("refreshToken", t.refreshToken),
            seal("userId", t.userId),
            t.merchantId,
            t.scope,
            t.accessExpiresAt.getTime(),
          ),
      );
    },
    async acquireRenewalLease(holder, ttlMs) {
      const now = Date.now();
      return transaction(
        () =>
          db()
            .prepare(
              `INSERT INTO leases VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE
               SET holder = excluded.holder, expiresAt = excluded.expiresAt
               WHERE leases.expiresAt <= ? OR leases.holder = excluded.holder`,
            )
            .run(LEASE, holder, now + ttlMs, now).changes === 1,
      );
    },
    async releaseRenewalLease(holder) {
      await transaction(() =>
        db().prepare("DELETE FROM leases WHERE name = ? AND holder = ?").run(LEASE, holder),
      );
    },
  };
}
