import "server-only";
import type { IntegrationLogStore } from "@service-integration/kit";
import type { IntegrationEntryKind } from "@service-integration/kit/server";
import type { Db } from "@/lib/db/client";

const DAY_MS = 24 * 60 * 60 * 1000;
const LATEST = 100;
/** Entries older than a day are deleted after every this many writes of a process. */
const PRUNE_EVERY = 200;

/**
 * The kit's IntegrationLogStore on the IntegrationLogEntry table: every instance writes
 * there, so a shopper's drawer, polled through any instance, shows what every instance did.
 * `db` is read when used, so installing the store at start connects nothing.
 */
export function createPrismaIntegrationLog(db: () => Pick<Db, "integrationLogEntry">) {
  let writes = 0;
  const store: IntegrationLogStore = {
    async append(key, entry) {
      await db().integrationLogEntry.create({
        data: {
          key,
          at: new Date(entry.at),
          kind: entry.kind,
          label: entry.label,
          status: entry.status ?? null,
          ok: entry.ok,
          durationMs: entry.durationMs ?? null,
          detail: entry.detail ?? "",
          expected: entry.expected ?? null,
        },
      });
      writes += 1;
      if (writes % PRUNE_EVERY === 0) {
        await db().integrationLogEntry.deleteMany({
          where: { at: { lt: new Date(Date.now() - DAY_MS) } },
        });
      }
    },
    async read(key, afterSeq) {
      const rows = await db().integrationLogEntry.findMany({
        where: { key, seq: { gt: afterSeq } },
        orderBy: { seq: "desc" },
        take: LATEST,
      });
      return rows.reverse().map((row) => ({
        seq: row.seq,
        at: row.at.toISOString(),
        kind: row.kind as IntegrationEntryKind,
        label: row.label,
        ok: row.ok,
        ...(row.status !== null ? { status: row.status } : {}),
        ...(row.durationMs !== null ? { durationMs: row.durationMs } : {}),
        ...(row.detail ? { detail: row.detail } : {}),
        ...(row.expected ? { expected: row.expected } : {}),
      }));
    },
  };
  return store;
}
