import type { OrderNotification } from "@service-integration/kit";
import { parseOrderNotification } from "@service-integration/kit";
import { applyStored, createNotificationInbox } from "@service-integration/kit/server";
import { describe, expect, it, vi } from "vitest";
import { seedPendingServicePayOrder, setUpTestShop, withHistory } from "@/test-support/test-shop";
import { serviceAdapter, servicePayDeps } from "./service";

// Store-then-apply on a real migrated SQLite database (contract: Events › Webhook, Merchant
// endpoints rule 2; docs/decisions/webhook-storage.md): a 200 only after the commit holding the
// row, an apply exactly once whoever applies, and nothing lost between the two.

const shop = setUpTestShop();
let seq = 0;

const pendingOrder = () => seedPendingServicePayOrder(shop);

function paid(cartId: string, fields: Record<string, unknown> = {}): OrderNotification {
  seq += 1;
  const body = JSON.stringify({
    id: `wh_inbox_${seq}`,
    event: "order.payment_completed",
    order_id: `ord_${cartId}`,
    cart_id: cartId,
    status: "payment_completed",
    amount: 12300 + 1499, // items, tax and the express delivery: the Cart's total
    currency: "EUR",
    trade_in_discount: 1500,
    ...fields,
  });
  return parseOrderNotification(new TextEncoder().encode(body));
}

function inboxDeps() {
  return { ...servicePayDeps(), store: serviceAdapter(shop.db).servicePay };
}

const serviceChanges = (orderId: string) =>
  shop.db.orderStatusChange.count({ where: { orderId, source: "service" } });
/** The order's status changes the service's notifications made, oldest first, as [from, to]. */
const serviceTransitions = async (orderId: string) =>
  (
    await withHistory(shop.db, await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }))
  ).history
    .filter((h) => h.source === "service")
    .map((h) => [h.from, h.to]);
const outcome = async (dedupeKey: string) =>
  (await shop.db.serviceNotification.findUniqueOrThrow({ where: { dedupeKey } })).outcome;

describe("the webhook's store-then-apply inbox", () => {
  it("answers once stored, then applies: the outcome lands on the row", async () => {
    const { cartId, order } = await pendingOrder();
    const inbox = createNotificationInbox(inboxDeps());
    const n = paid(cartId);
    expect(await inbox.receive(n)).toBe("stored");
    await expect.poll(() => outcome(n.dedupeKey)).toBe("applied");
    const after = await shop.db.order.findUniqueOrThrow({ where: { id: order.id } });
    expect([after.status, after.tradeInDiscount]).toEqual(["payment_completed", 1500]);
  });

  it("groups the deliveries of one turn into one commit, and those arriving during it into the next", async () => {
    const { cartId } = await pendingOrder();
    const store = serviceAdapter(shop.db).servicePay;
    const commit = store.storeBatch.bind(store);
    const storeBatch = vi.spyOn(store, "storeBatch");
    const inbox = createNotificationInbox({ ...inboxDeps(), store });
    // Ten deliveries: six in the first turn, four during its commit (each one applied later).
    const sent = Array.from({ length: 10 }, (_, i) =>
      paid(cartId, { status: i === 0 ? "payment_completed" : "completed" }),
    );
    const during: Promise<"stored" | "duplicate">[] = [];
    storeBatch.mockImplementationOnce(async (batch) => {
      // Four arrive while the first commit is in flight.
      for (const n of sent.slice(6)) during.push(inbox.receive(n));
      return commit(batch);
    });
    const first = await Promise.all(sent.slice(0, 6).map((n) => inbox.receive(n)));
    const second = await Promise.all(during);
    expect([...first, ...second]).toEqual(Array(10).fill("stored"));
    expect(storeBatch.mock.calls.map(([batch]) => batch.length)).toEqual([6, 4]);
    await inbox.idle();
  });

  it("applies nothing while deliveries keep coming, and what was stored once they pause", async () => {
    // The inbox's clock is driven (Date and setTimeout faked); the database's I/O runs for real.
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      const flush = async () => {
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      const { cartId } = await pendingOrder();
      const inbox = createNotificationInbox({ ...inboxDeps(), quietMs: 20 });
      const first = paid(cartId);
      expect(await inbox.receive(first)).toBe("stored");
      // A delivery every 10 ms for 100 ms: never 20 ms of quiet, so nothing is applied. The same
      // order's later deliveries: an order of its own each would only add setup to the case.
      for (let i = 0; i < 10; i++) {
        await vi.advanceTimersByTimeAsync(10);
        expect(await inbox.receive(paid(cartId, { status: "completed" }))).toBe("stored");
        await flush();
        expect(await outcome(first.dedupeKey)).toBe("stored");
      }
      // The burst is over: 20 ms later the applier takes what was stored, oldest first.
      await vi.advanceTimersByTimeAsync(25);
      for (let i = 0; i < 50 && (await outcome(first.dedupeKey)) === "stored"; i++) {
        await vi.advanceTimersByTimeAsync(5);
        await flush();
      }
      expect(await outcome(first.dedupeKey)).toBe("applied");
      const stored = () => shop.db.serviceNotification.count({ where: { outcome: "stored" } });
      for (let i = 0; i < 100 && (await stored()) > 0; i++) {
        await vi.advanceTimersByTimeAsync(25);
        await flush();
      }
      expect(await stored()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the host awake for the applier by one delivery's request at a time, until nothing is left", async () => {
    // Next's after() keeps a request's whole context in memory until the promise it was handed
    // settles: one promise per delivery kept every request of a burst alive until its end.
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    try {
      const flush = async () => {
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      const { cartId } = await pendingOrder();
      const inbox = createNotificationInbox({ ...inboxDeps(), quietMs: 20 });
      const held: { settled: boolean }[] = [];
      const waitUntil = (work: Promise<unknown>) => {
        const promise = { settled: false };
        held.push(promise);
        void work.then(() => {
          promise.settled = true;
        });
      };
      const sent: OrderNotification[] = [];
      // A burst of five (never 20 ms of quiet): each delivery's request takes the keep-awake
      // over, and the earlier one's promise settles although its apply has not run.
      for (let i = 0; i < 5; i++) {
        const n = paid(cartId, { status: i === 0 ? "payment_completed" : "completed" });
        sent.push(n);
        expect(await inbox.receive(n, { waitUntil })).toBe("stored");
        await flush();
        expect(held.map((h) => h.settled)).toEqual([...Array(i).fill(true), false]);
        expect(await outcome(sent[0]?.dedupeKey as string)).toBe("stored");
        await vi.advanceTimersByTimeAsync(10);
      }
      // The burst pauses: the last one settles once every delivery of it was applied.
      const stored = () =>
        shop.db.serviceNotification.count({ where: { cartId, outcome: "stored" } });
      // Each round trip to the database also lets the applier's own I/O (PostgreSQL's) finish.
      for (let i = 0; i < 100 && !held[4]?.settled; i++) {
        await vi.advanceTimersByTimeAsync(25);
        await flush();
        await stored();
      }
      expect(held.map((h) => h.settled)).toEqual(Array(5).fill(true));
      expect(await stored()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands the keep-awake over once per commit: to the last of its deliveries with something to apply", async () => {
    const { cartId } = await pendingOrder();
    const store = serviceAdapter(shop.db).servicePay;
    const storeBatch = vi.spyOn(store, "storeBatch");
    storeBatch.mockClear(); // the adapter's store is shared with the other tests
    // Ready-to-place-order mode: a plain repeat queues nothing, so it holds nothing.
    const inbox = createNotificationInbox({ ...inboxDeps(), store, mode: "ready_to_place_order" });
    const handed: number[] = [];
    const from = (i: number) => (work: Promise<unknown>) => {
      handed.push(i);
      void work;
    };
    const first = paid(cartId);
    const sent = [first, paid(cartId, { status: "completed" }), paid(cartId), first];
    // One turn: one commit answers all four together.
    const answers = await Promise.all(sent.map((n, i) => inbox.receive(n, { waitUntil: from(i) })));
    expect(answers).toEqual(["stored", "stored", "stored", "duplicate"]);
    expect(storeBatch).toHaveBeenCalledTimes(1);
    expect(handed).toEqual([2]);
    await inbox.idle();
  });

  it("a batch with a duplicate inserts it once: a repeat inside the batch and one stored before", async () => {
    const { cartId } = await pendingOrder();
    const store = serviceAdapter(shop.db).servicePay;
    const before = paid(cartId);
    await store.storeBatch([before]);
    const fresh = paid(cartId, { status: "completed" });
    const ids = await store.storeBatch([fresh, before, fresh]);
    expect(ids[0]).toEqual(expect.any(String));
    expect(ids.slice(1)).toEqual([null, null]);
    expect(await shop.db.serviceNotification.count({ where: { cartId } })).toBe(2);

    // Through the inbox: copies in one batch, one "stored", the others "duplicate".
    const inbox = createNotificationInbox({ ...inboxDeps(), store });
    const again = paid(cartId, { status: "completed" });
    const answers = await Promise.all([
      inbox.receive(paid(cartId, { status: "pending" })),
      inbox.receive(again),
      inbox.receive(again),
      inbox.receive(before),
    ]);
    expect(answers).toEqual(["stored", "stored", "duplicate", "duplicate"]);
    await inbox.idle();
  });

  it("a batch whose commit fails answers none of its deliveries, and stores none", async () => {
    const { cartId } = await pendingOrder();
    const inbox = createNotificationInbox(inboxDeps());
    const first = paid(cartId);
    const good = paid(cartId, { status: "completed" });
    // NOT NULL status: the batch's one INSERT fails, so its commit never happens.
    const broken = { ...paid(cartId, { status: "pending" }), status: null as unknown as string };
    expect(await inbox.receive(first)).toBe("stored"); // commits alone
    const answers = await Promise.allSettled([
      // One turn: the three share the next commit.
      inbox.receive(good),
      inbox.receive(broken),
      inbox.receive(paid(cartId, { id: "wh_inbox_other" })),
    ]);
    expect(answers.map((a) => a.status)).toEqual(["rejected", "rejected", "rejected"]);
    const stored = await shop.db.serviceNotification.findMany({ where: { cartId } });
    expect(stored.map((n) => n.dedupeKey)).toEqual([first.dedupeKey]);
    await inbox.idle();
  });

  it("applies at start-up what was stored but never applied (a stop between the 200 and the apply)", async () => {
    const { cartId, order } = await pendingOrder();
    // The process that answered stopped right after its commit: stored, nothing applied.
    const n = paid(cartId);
    await serviceAdapter(shop.db).servicePay.storeBatch([n]);
    expect(await outcome(n.dedupeKey)).toBe("stored");

    const restarted = createNotificationInbox(inboxDeps());
    expect(await restarted.applyUnapplied()).toBeGreaterThanOrEqual(1);
    expect(await outcome(n.dedupeKey)).toBe("applied");
    expect(await serviceChanges(order.id)).toBe(1);
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe(
      "payment_completed",
    );
  });

  it("two appliers racing for the same stored notifications apply each once", async () => {
    // Two orders' notifications: each applier meets every row, one of them in reverse order.
    const orders = await Promise.all(Array.from({ length: 2 }, () => pendingOrder()));
    const store = serviceAdapter(shop.db).servicePay;
    const sent = orders.map(({ cartId }) => paid(cartId));
    const ids = await store.storeBatch(sent);
    const rows = sent.map((n, i) => ({ ...n, id: ids[i] as string }));

    // Two instances' appliers (their own stores), plus a start-up sweep, at the same moment.
    const receipts = await Promise.all([
      applyStored(inboxDeps(), rows),
      applyStored(inboxDeps(), [...rows].reverse()),
      createNotificationInbox(inboxDeps()).applyUnapplied(),
    ]);
    const appliedByEach = [
      receipts[0].filter((r) => r !== null).length,
      receipts[1].filter((r) => r !== null).length,
      receipts[2] as number,
    ];
    expect(appliedByEach.reduce((a, b) => a + b, 0)).toBe(2);
    for (const { order } of orders) expect(await serviceChanges(order.id)).toBe(1);
    for (const n of sent) expect(await outcome(n.dedupeKey)).toBe("applied");
  });

  it("applies an order's older stored notification first when another applier reaches a later one", async () => {
    const { cartId, order } = await pendingOrder();
    const store = serviceAdapter(shop.db).servicePay;
    const earlier = paid(cartId);
    const later = paid(cartId, { status: "completed" });
    const [earlierId] = await store.storeBatch([earlier]);
    const [laterId] = await store.storeBatch([later]);
    // This instance holds only the later row (the earlier one is another instance's, still
    // waiting there): the order still moves on in the order they were stored.
    await applyStored(inboxDeps(), [{ ...later, id: laterId as string }]);
    expect(await serviceTransitions(order.id)).toEqual([
      ["pending", "payment_completed"],
      ["payment_completed", "completed"],
    ]);
    expect([await outcome(earlier.dedupeKey), await outcome(later.dedupeKey)]).toEqual([
      "applied",
      "applied",
    ]);
    // The other instance's applier then finds its row taken.
    expect(await applyStored(inboxDeps(), [{ ...earlier, id: earlierId as string }])).toEqual([
      null,
    ]);
  });

  it("two notifications of an order stored within one millisecond are applied in the order they were stored", async () => {
    const { cartId, order } = await pendingOrder();
    const store = serviceAdapter(shop.db).servicePay;
    const earlier = paid(cartId);
    const later = paid(cartId, { status: "completed" });
    // The clock does not move between the two stores (a fast machine, or one with a coarse clock).
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now);
    await store.storeBatch([earlier]);
    const [laterId] = await store.storeBatch([later]);
    vi.restoreAllMocks();
    await applyStored(inboxDeps(), [{ ...later, id: laterId as string }]);
    expect(await serviceTransitions(order.id)).toEqual([
      ["pending", "payment_completed"],
      ["payment_completed", "completed"],
    ]);
  });

  it("keeps a notification whose apply fails stored for the next sweep, without holding back the others", async () => {
    const [a, b] = await Promise.all([pendingOrder(), pendingOrder()]);
    const first = paid(a.cartId);
    const second = paid(b.cartId);
    const real = serviceAdapter(shop.db).servicePay;
    const ids = await real.storeBatch([first, second]);
    // The database refuses the second one's apply (any error inside its transaction).
    const store: typeof real = {
      ...real,
      transaction: (fn) =>
        real.transaction((tx) =>
          fn({
            ...tx,
            claimStored: async (id) => {
              if (id === ids[1]) throw new Error("the apply failed");
              return tx.claimStored(id);
            },
          }),
        ),
    };
    const log = vi.fn();
    const receipts = await applyStored(
      { ...inboxDeps(), store },
      [first, second].map((n, i) => ({ ...n, id: ids[i] as string })),
      log,
    );
    expect(receipts.map((r) => r?.outcome ?? null)).toEqual(["applied", null]);
    expect(await outcome(first.dedupeKey)).toBe("applied");
    expect(await outcome(second.dedupeKey)).toBe("stored");
    expect(log).toHaveBeenCalledWith(expect.stringContaining(second.dedupeKey), expect.any(Error));
    // The next sweep (here with the database working again) applies it.
    expect(await createNotificationInbox(inboxDeps()).applyUnapplied()).toBeGreaterThanOrEqual(1);
    expect(await outcome(second.dedupeKey)).toBe("applied");
  });
});
