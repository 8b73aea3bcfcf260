import "server-only";
import type { WaitUntil } from "./after-response.js";
import {
  applyClaimed,
  applyClaimedTo,
  createOrderOnWebhook,
  type NotificationDeps,
  type NotificationReceipt,
} from "./order-webhook.js";
import { pruneAbandonedOrders } from "./pending-order.js";
import type {
  OrderStatusRules,
  StoredNotificationStore,
  StoredNotificationTx,
  WaitingNotification,
} from "./shop-ports.js";
import type { OrderNotification } from "./webhook-payload.js";

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
 *
 * On a host that freezes the function once the response is sent (serverless), the apply must
 * finish within the request's life: `receive` hands the `waitUntil` it is given (Next's
 * `after()`, as receiveOrderWebhook passes by default) a promise that keeps the host awake until
 * the applier has nothing left, so the answer is not delayed by it. ONE request at a time holds
 * it: a later delivery takes it over and the earlier one's promise settles, and of the
 * deliveries one commit answers together only the last hands one over. A host stays awake
 * while any request or waitUntil is pending, so the latest delivery's covers every apply queued
 * before it; and `after()` keeps a request's whole context (its response, headers, streams) in
 * memory until its promise settles, so one promise per delivery kept every request of a burst
 * alive until the burst's end (docs/decisions/webhook-storage.md, 2026-11-29).
 */

/** createNotificationInbox's dependencies: NotificationDeps, its store taking stored rows. */
export interface NotificationInboxDeps extends NotificationDeps {
  /** The shop's Service Pay store with stored notifications (store-then-apply). */
  store: StoredNotificationStore;
  /** Where an apply that failed (its row left "stored" for the sweep) is told; default:
   *  nowhere. */
  log?: (message: string, error?: unknown) => void;
  /** Most deliveries in one commit (parameters per statement stay well within the databases'). */
  maxBatch?: number;
  /** Most stored notifications applied in one transaction. */
  applyChunk?: number;
  /**
   * Applies wait until no delivery arrived for this long (milliseconds, default 20): answers
   * first, so a burst is answered at the pace of storing alone and applied as it ebbs.
   */
  quietMs?: number;
}

/** NotificationInbox.receive's options. */
export interface ReceiveOptions {
  /**
   * Given, once the notification is stored and before `receive` resolves, a promise that settles
   * once the applier has nothing left to apply, this delivery's apply included (applied, or
   * failed and left "stored" for the sweep; it never rejects), or as soon as a later delivery's
   * `waitUntil` is given the same task: one request at a time keeps the host awake for the
   * applier. Called in the caller's async context; not called when there is nothing to apply (a
   * duplicate), nor when a later delivery answered by the same commit takes the task. Without it the apply runs on in this process's memory, as on a resident server.
   */
  waitUntil?: WaitUntil;
}

/** The webhook's store-then-apply inbox: stores each delivery durably, applies it after. */
export interface NotificationInbox {
  /** Durably stores the notification: "stored", or "duplicate" when its key already was. */
  receive(
    notification: OrderNotification,
    options?: ReceiveOptions,
  ): Promise<"stored" | "duplicate">;
  /** Applies every stored notification no one applied yet; how many this call applied. */
  applyUnapplied(): Promise<number>;
  /**
   * The scheduled sweep: applyUnapplied, then pruneAbandonedOrders (pending-order.ts: guests'
   * pending Service Pay orders no notification named, older than the modal's lifetime plus a
   * day), after the apply so a payment stored and not applied yet reaches its order first.
   * `now`: the clock (tests).
   */
  sweep(options?: { now?: Date }): Promise<{
    /** Stored notifications this sweep applied. */
    applied: number;
    /** Abandoned guest pending orders it dropped. */
    pruned: number;
  }>;
  /** Resolves once nothing is being stored or applied by this inbox (tests, shutdown). */
  idle(): Promise<void>;
}

interface Received {
  outcome: "stored" | "duplicate";
  /** Whether this delivery's request takes over keeping the host awake for the applier: the
   *  last of its batch that gave a `waitUntil` and queued something to apply. */
  holdsHost: boolean;
}

interface Pending {
  notification: OrderNotification;
  waitUntil: WaitUntil | undefined;
  resolve: (received: Received) => void;
  reject: (error: unknown) => void;
}

/** What the applier does for one delivery. */
type ApplyWork = { stored: WaitingNotification } | { duplicate: OrderNotification };

/** A promise and the function that settles it. */
function settleable(): { promise: Promise<void>; done: () => void } {
  let done = () => {};
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { promise, done };
}

/** The inbox of one process over the shop's stored notification store, as described above. */
export function createNotificationInbox(deps: NotificationInboxDeps): NotificationInbox {
  const maxBatch = deps.maxBatch ?? 200;
  const chunk = deps.applyChunk ?? 4;
  const quietMs = deps.quietMs ?? 20;
  let lastActivity = 0;
  // Set when a long burst stored more than the queue holds: the drain then reads the rest from
  // the database (applyStoredRows) instead of keeping every one of them in memory.
  let overflowed = false;
  const log = deps.log ?? (() => {});
  let waiting: Pending[] = [];
  const toApply: ApplyWork[] = [];
  let applying: Promise<void> | null = null;
  let committed: Promise<void> | null = null;
  // Settles the one promise a caller's waitUntil holds for the applier (see the top), if any.
  let releaseHost: (() => void) | null = null;

  /** Hands the host's keep-awake to this delivery's request, releasing the previous one's. */
  function keepHostAwake(waitUntil: WaitUntil): void {
    releaseHost?.();
    releaseHost = null;
    // Nothing left to apply: the applier finished this delivery's apply before its answer.
    if (!applying) return;
    const held = settleable();
    releaseHost = held.done;
    waitUntil(held.promise);
  }

  async function commitLoop(): Promise<void> {
    while (waiting.length > 0) {
      // The commit waits for the event loop's next turn: the deliveries whose bodies arrived
      // in this turn join it, so a burst shares one durable write instead of one each.
      await new Promise((resolve) => setImmediate(resolve));
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
      // The batch's answers go out together, so ONE of their requests is enough to keep the
      // host awake for what they queued: the last that can (one after() instead of one each).
      let holder: Pending | undefined;
      batch.forEach((p, i) => {
        const id = ids[i];
        let queued = true;
        if (id && toApply.length < MAX_QUEUED) {
          toApply.push({ stored: { ...p.notification, id } });
        } else if (id) {
          overflowed = true;
        } else if (deps.mode === "webhook" && p.notification.cartId) {
          // A repeat whose first copy is still waiting for its order (the details came late,
          // or the process stopped before creating it) must not be swallowed.
          toApply.push({ duplicate: p.notification });
        } else {
          queued = false;
        }
        if (queued && p.waitUntil) holder = p;
      });
      batch.forEach((p, i) => {
        p.resolve({ outcome: ids[i] ? "stored" : "duplicate", holdsHost: p === holder });
      });
      startApplying();
    }
  }

  /**
   * Answers first: a delivery waits for its commit, never for an apply (an apply holds the
   * process, and on SQLite the database, for milliseconds), so applies wait until nothing is
   * being stored and no delivery arrived or was answered for `quietMs`. Under a burst the
   * stored rows wait (durably, claimed by nobody) and are applied as it pauses; at a shop's
   * usual pace, deliveries seconds apart, each is applied `quietMs` after its answer.
   */
  async function quiet(): Promise<void> {
    for (;;) {
      // The event loop's I/O first: deliveries that came during the last apply count.
      await new Promise((resolve) => setImmediate(resolve));
      while (committed) await committed;
      const since = Date.now() - lastActivity;
      if (since >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, quietMs - since));
    }
  }

  /** Applies the rows left "stored", read back from the database oldest first. */
  async function applyStoredRows(): Promise<number> {
    let applied = 0;
    const tried = new Set<string>();
    for (;;) {
      const rows = (await deps.store.unapplied(100)).filter((row) => !tried.has(row.id));
      // Rows that failed in this sweep stay for the next one (logged), never looped on.
      if (rows.length === 0) return applied;
      for (const row of rows) tried.add(row.id);
      for (let i = 0; i < rows.length; i += chunk) {
        await quiet();
        const receipts = await applyStored(deps, rows.slice(i, i + chunk), log);
        applied += receipts.filter((r) => r !== null).length;
      }
    }
  }

  async function drain(): Promise<void> {
    if (toApply.length === 0 && overflowed) {
      overflowed = false;
      await applyStoredRows().catch((error) => log("order webhook: applying failed", error));
    }
    while (toApply.length > 0) {
      await quiet();
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

  function startCommitting(): void {
    if (committed || waiting.length === 0) return;
    committed = commitLoop().finally(() => {
      // Its answers are going out now: a sender's next delivery follows them, so the quiet
      // the applier waits for counts from here.
      lastActivity = Date.now();
      committed = null;
      // A delivery that came after the loop's last look (in the same microtask queue as its
      // end) still gets its commit.
      startCommitting();
    });
  }

  function startApplying(): void {
    if (applying || (toApply.length === 0 && !overflowed)) return;
    // `.finally` runs after this assignment, whatever drain does first.
    applying = drain().finally(() => {
      applying = null;
      startApplying();
      if (!applying) {
        // Everything queued was applied (or left for the sweep): the host may sleep.
        releaseHost?.();
        releaseHost = null;
      }
    });
  }

  return {
    async receive(notification, options = {}) {
      const { waitUntil } = options;
      const received = await new Promise<Received>((resolve, reject) => {
        lastActivity = Date.now();
        waiting.push({ notification, waitUntil, resolve, reject });
        startCommitting();
      });
      // Here, in the caller's async context (a commit resolves several callers' deliveries at
      // once): Next's after() finds the request it belongs to by that context.
      if (received.holdsHost && waitUntil) keepHostAwake(waitUntil);
      return received.outcome;
    },

    async applyUnapplied() {
      // After this process's own applier: both would otherwise race over the same rows (the
      // database lets one of them apply each, but both pay for looking).
      while (applying) await applying;
      return applyStoredRows();
    },

    async sweep(options = {}) {
      while (applying) await applying;
      const applied = await applyStoredRows();
      return { applied, pruned: await pruneAbandonedOrders(deps, options) };
    },

    async idle() {
      while (committed || applying) await (committed ?? applying);
    },
  };
}

/** Stored notifications the applier keeps in memory; beyond, it reads them back when it can. */
const MAX_QUEUED = 1000;

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
  // The order as locked above, unless an older notification just changed it.
  return older.length === 0
    ? applyClaimedTo(tx, statuses, row.id, row, order)
    : applyClaimed(tx, statuses, row.id, row);
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
