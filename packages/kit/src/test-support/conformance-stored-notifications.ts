// Conformance checks of the store-then-apply webhook's stored notifications (StoredNotificationStore).
import { expect } from "vitest";
import type { ServicePayStore, StoredNotificationStore } from "../shop-ports.js";
import { type OrderNotification, parseOrderNotification } from "../webhook-payload.js";
import type { ConformanceHost } from "./conformance-host.js";

/** The host's store with storeBatch and unapplied, or an error naming the check to skip. */
function storedNotificationStore(host: ConformanceHost, check: string) {
  const store = host.servicePay as ServicePayStore & Partial<StoredNotificationStore>;
  const { storeBatch, unapplied } = store;
  if (!storeBatch || !unapplied)
    throw new Error(
      `the Service Pay store has no storeBatch (store-then-apply): skip this check ({ skip: ["${check}"] })`,
    );
  return {
    store,
    storeBatch: (batch: OrderNotification[]) => storeBatch.call(store, batch),
    unapplied: (limit: number) => unapplied.call(store, limit),
  };
}

/** A notification with every nullable field null, as the webhook parses a body that names only
 *  the cart. */
const none = (dedupeKey: string): OrderNotification => ({
  ...parseOrderNotification(new TextEncoder().encode('{"cart_id":"c","status":"completed"}')),
  cartId: null,
  body: "{}",
  dedupeKey,
});

/** Text a row must keep to the byte: quotes of both kinds, a backslash, SQL and JSON syntax,
 *  accents, CJK, emoji (a surrogate pair, one with a modifier), control characters, U+2028. */
const AWKWARD_TEXT = `O'Brien "q" \\ '); -- ?, $1 {"a":[1]} Ünïcødé 日本 😀👍🏽 \u0001\u001f\t\r\n\u2028`;

/**
 * storeBatch's one statement keeps every value exactly (contract, Merchant endpoints rule 2: the
 * body as received): nulls, integer cents, awkward text, a 64 KB body; the first copy of a key
 * in the batch wins and a key stored before is not stored again; the rows read back oldest
 * first in the batch's order (its receivedAt).
 */
export async function storedBatchKeepsValues(host: ConformanceHost) {
  const { storeBatch, unapplied } = storedNotificationStore(host, "stored-batch");
  const before = { ...none("batch:stored-before"), body: "the first copy" };
  const [beforeId] = await storeBatch([before]);
  const batch: OrderNotification[] = [
    none("batch:nulls"),
    {
      dedupeKey: `batch:${AWKWARD_TEXT}`,
      notificationId: `wh_${AWKWARD_TEXT}`,
      event: `order.${AWKWARD_TEXT}`,
      serviceOrderId: `svc_${AWKWARD_TEXT}`,
      cartId: `cart_${AWKWARD_TEXT}`,
      status: AWKWARD_TEXT,
      amount: 2_147_483_647,
      currency: "EUR",
      tradeInDiscount: 0,
      customerId: null,
      form: "data",
      body: JSON.stringify({ note: AWKWARD_TEXT }),
    },
    { ...none("batch:negative"), amount: -1, tradeInDiscount: 1, currency: "" },
    { ...none("batch:nulls"), body: "a second copy in the batch" },
    { ...before, body: "a copy of a stored key" },
    { ...none("batch:64k"), body: AWKWARD_TEXT.repeat(65_536 / AWKWARD_TEXT.length) },
  ];
  const ids = await storeBatch(batch);
  expect(
    ids.map((id) => id !== null),
    "stored: the first copy of a key, not a second nor one stored before",
  ).toEqual([true, true, true, false, false, true]);
  const rows = await unapplied(100);
  expect(rows.find((r) => r.id === beforeId)).toEqual({ ...before, id: beforeId });
  expect(
    rows.filter((r) => r.id !== beforeId),
    "every field as stored, oldest first in the batch's order",
  ).toEqual(ids.flatMap((id, i) => (id === null ? [] : [{ ...batch[i], id }])));
}

/**
 * storeBatch commits on its own (contract, Merchant endpoints rule 2: stored before the 200): a
 * batch sent while another transaction of the store is open and then rolled back is stored all
 * the same. On SQLite's one connection a statement run outside the adapter's transactions would
 * join the open one and roll back with it, after the deliveries it holds were answered 200.
 */
export async function storedBatchCommitsOnItsOwn(host: ConformanceHost) {
  const { store, storeBatch, unapplied } = storedNotificationStore(host, "stored-batch-own-commit");
  const sent = none("batch:beside-a-rollback");
  let stored: Promise<(string | null)[]> | undefined;
  await expect(
    store.transaction(async (tx) => {
      await tx.waitingNotifications("no-such-cart", null);
      stored = storeBatch([sent]);
      // Turns enough for the batch to run, had it not waited for this transaction's end.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  const [id] = (await stored) ?? [];
  expect(id, "stored").toEqual(expect.any(String));
  expect(
    (await unapplied(100)).map((r) => r.id),
    "still stored after the rollback",
  ).toContain(id);
}
