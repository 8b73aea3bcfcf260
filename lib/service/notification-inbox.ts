import "server-only";
import {
  applyClaimed,
  createOrderOnWebhook,
  type NotificationDeps,
  type NotificationReceipt,
} from "./order-webhook";
import type {
  OrderStatusRules,
  StoredNotificationStore,
  StoredNotificationTx,
  WaitingNotification,
} from "./shop-ports";
import type { OrderNotification } from "./webhook-payload";

/**
 * The order webhook's store-then-apply (contract: Events › Webhook, Merchant endpoints rule 2).
 *
 * A 200 tells the service to stop retrying, so the notification must be durably stored before
 * it, but it need not be applied yet. `receive` groups the deliveries of one process arriving
 * while a commit is in flight into the next commit ("group commit": one durable write for many
 * deliveries instead of one each) and resolves each delivery only after the commit holding its
 * row returned; a failed commit rejects every delivery of its batch (none is answered 200).
 * Right after a commit its new rows are applied, oldest first, by one applier per process, each
 * row claimed in the database (StoredNotificationTx.claimStored) in the transaction that applies
 * it, so several appliers (instances, the sweep) apply it once. Process memory only says what to
 * try next; the rows left "stored" (a crash between store and apply, a failed apply) are applied
 * by `applyUnapplied`, run at start-up and on a schedule.
 */

export interface NotificationInboxDeps extends NotificationDeps {
  store: StoredNotificationStore;
  log?: (message: string, error?: unknown) => void;
  /** Most deliveries in one commit (parameters per statement stay well within the databases'). */
  maxBatch?: number;
  /** Most stored notifications applied in one transaction. */
  applyChunk?: number;
}

export interface NotificationInbox {
  /** Durably stores the notification: "stored", or "duplicate" when its key already was. */
  receive(notification: OrderNotification): Promise<"stored" | "duplicate">;
  /** Applies every stored notification no one applied yet; how many this call applied. */
  applyUnapplied(): Promise<number>;
  /** Resolves once nothing is being stored or applied by this inbox (tests, shutdown). */
  idle(): Promise<void>;
}

interface Pending {
  notification: OrderNotification;
  resolve: (stored: "stored" | "duplicate") => void;
  reject: (error: unknown) => void;
}

type ApplyWork = { stored: WaitingNotification } | { duplicate: OrderNotification };

export function createNotificationInbox(deps: NotificationInboxDeps): NotificationInbox {
  const maxBatch = deps.maxBatch ?? 200;
  const chunk = deps.applyChunk ?? 4;
  const log = deps.log ?? (() => {});
  let waiting: Pending[] = [];
  let committing = false;
  const toApply: ApplyWork[] = [];
  let applying: Promise<void> | null = null;
  let committed: Promise<void> | null = null;

  async function commitLoop(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      let ids: (string | null)[];
      try {
        ids = await deps.store.storeBatch(batch.map((p) => p.notification));
      } catch (error) {
        // Nothing of the batch is stored: not 200, so the service sends each again.
        for (const p of batch) p.reject(error);
        continue;
      }
      batch.forEach((p, i) => {
        const id = ids[i];
        if (id) toApply.push({ stored: { ...p.notification, id } });
        else if (deps.mode === "webhook" && p.notification.cartId) {
          // A repeat whose first copy is still waiting for its order (the details came late,
          // or the process stopped before creating it) must not be swallowed.
          toApply.push({ duplicate: p.notification });
        }
        p.resolve(id ? "stored" : "duplicate");
      });
      startApplying();
    }
  }

  async function drain(): Promise<void> {
    while (toApply.length > 0) {
      // Answers first: a burst's deliveries wait for their commit, not for applies (each apply
      // holds the process, and on SQLite the database, for several milliseconds), so the
      // applier takes a chunk only between commits, after the waiting I/O was handled. Under a
      // long flood the stored rows wait (durably) and are applied once it eases.
      while (committed) await committed;
      await new Promise((resolve) => setImmediate(resolve));
      if (committed) continue;
      const next = toApply.splice(0, chunk);
      const stored = next.flatMap((w) => ("stored" in w ? [w.stored] : []));
      if (stored.length > 0) await applyStored(deps, stored, log);
      for (const w of next) {
        if ("duplicate" in w) {
          await createOrderOnWebhook(deps, w.duplicate, { outcome: "duplicate" }).catch((error) =>
            log("order webhook: creating the order of a repeat failed", error),
          );
        }
      }
    }
  }

  function startApplying(): void {
    if (applying || toApply.length === 0) return;
    // `.finally` runs after this assignment, whatever drain does first.
    applying = drain().finally(() => {
      applying = null;
      startApplying();
    });
  }

  return {
    receive(notification) {
      return new Promise((resolve, reject) => {
        waiting.push({ notification, resolve, reject });
        if (committing) return;
        committing = true;
        committed = commitLoop().finally(() => {
          committing = false;
          committed = null;
        });
      });
    },

    async applyUnapplied() {
      let applied = 0;
      const tried = new Set<string>();
      for (;;) {
        const rows = (await deps.store.unapplied(100)).filter((row) => !tried.has(row.id));
        // Rows that failed in this sweep stay for the next one (logged), never looped on.
        if (rows.length === 0) return applied;
        for (const row of rows) tried.add(row.id);
        for (let i = 0; i < rows.length; i += chunk) {
          const receipts = await applyStored(deps, rows.slice(i, i + chunk), log);
          applied += receipts.filter((r) => r !== null).length;
        }
      }
    },

    async idle() {
      while (committed || applying) await (committed ?? applying);
    },
  };
}

/**
 * Applies one stored notification in `tx`, after the older stored ones of its order: the order
 * is locked first (findOrderFor), so every applier of one order queues there and then claims
 * rows oldest first (two instances apply their own rows at their own pace; without this a
 * notification stored seconds later could overtake an earlier one). Null when another applier
 * already applied it.
 */
async function applyInOrder(
  tx: StoredNotificationTx,
  statuses: OrderStatusRules,
  row: WaitingNotification,
): Promise<NotificationReceipt | null> {
  const order = await tx.findOrderFor(row.serviceOrderId, row.cartId);
  if (!order) return (await tx.claimStored(row.id)) ? { outcome: "early" } : null;
  const older = await tx.storedBefore(
    row.id,
    order.cartId,
    order.serviceOrderId ?? row.serviceOrderId,
  );
  for (const earlier of older) {
    if (await tx.claimStored(earlier.id)) await applyClaimed(tx, statuses, earlier.id, earlier);
  }
  if (!(await tx.claimStored(row.id))) return null;
  return applyClaimed(tx, statuses, row.id, row);
}

/**
 * Applies stored notifications, oldest first, `rows` in one transaction (one commit for the
 * chunk). Each is claimed in that transaction first; one another applier holds is skipped
 * (null). When the chunk's transaction fails, each is tried in a transaction of its own, so one
 * notification's failure holds back no other; a failure is logged and the row stays "stored".
 */
export async function applyStored(
  deps: Omit<NotificationDeps, "store"> & { store: StoredNotificationStore },
  rows: WaitingNotification[],
  log: (message: string, error?: unknown) => void = () => {},
): Promise<(NotificationReceipt | null)[]> {
  let receipts: (NotificationReceipt | null)[];
  try {
    receipts = await deps.store.transaction(async (tx) => {
      const out: (NotificationReceipt | null)[] = [];
      for (const row of rows) out.push(await applyInOrder(tx, deps.statuses, row));
      return out;
    });
  } catch (error) {
    if (rows.length === 1) {
      log(`order webhook: applying stored notification ${rows[0]?.dedupeKey} failed`, error);
      return [null];
    }
    receipts = [];
    for (const row of rows) receipts.push(...(await applyStored(deps, [row], log)));
    return receipts;
  }
  const done: (NotificationReceipt | null)[] = [];
  for (const [i, row] of rows.entries()) {
    const receipt = receipts[i] ?? null;
    if (!receipt) {
      done.push(null);
      continue;
    }
    try {
      done.push(await createOrderOnWebhook(deps, row, receipt));
    } catch (error) {
      log(`order webhook: creating the order of ${row.dedupeKey} failed`, error);
      done.push(receipt);
    }
  }
  return done;
}
