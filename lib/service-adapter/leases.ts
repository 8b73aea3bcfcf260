import "server-only";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";

/**
 * Leases on the `Lease` table: work shared by every server instance runs on one at a time
 * (docs/decisions/scaling.md). Taking one is a single conditional UPDATE (free, expired or
 * already ours), atomic on SQLite (one writer at a time) and on PostgreSQL (a second UPDATE of
 * the row waits for the first and re-checks the condition); the first take of a name is an
 * INSERT whose primary key lets only one instance win.
 */
export function createLeases(db: Pick<PrismaClient, "lease">, now: () => Date = () => new Date()) {
  return {
    async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
      const at = now();
      const expiresAt = new Date(at.getTime() + ttlMs);
      const taken = await db.lease.updateMany({
        where: { name, OR: [{ expiresAt: { lte: at } }, { holder }] },
        data: { holder, expiresAt },
      });
      if (taken.count === 1) return true;
      try {
        await db.lease.create({ data: { name, holder, expiresAt } });
        return true;
      } catch (error) {
        // The row exists: someone else holds the lease.
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
          return false;
        }
        throw error;
      }
    },
    async release(name: string, holder: string): Promise<void> {
      await db.lease.deleteMany({ where: { name, holder } });
    },
  };
}
