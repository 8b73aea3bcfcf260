import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_SNAPSHOT_BYTES } from "../src/state/saved";
import { webhooksFor } from "../src/webhooks/module";
import { acceptedTradeIn, b64, errorOf, type Harness, makeCart, startEmulator } from "./harness";

// GET /__emulator/state answers the whole state as one snapshot (the `--state`, `--export` and
// `--import` file); PUT /__emulator/state replaces the state with one, validated whole first.

let a: Harness;
let b: Harness;
beforeAll(async () => {
  [a, b] = await Promise.all([startEmulator(), startEmulator()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});
beforeEach(() => {
  a.ctx.reset();
  b.ctx.reset();
});

/** A registered purchase (other payment method) on `h`: a session, a used trade-in, an order. */
async function purchase(h: Harness, orderId: string) {
  const { access_token } = await h.login();
  const ti = await acceptedTradeIn(h);
  const cart = makeCart({}, 25000, 2);
  const res = await h.api(access_token, "/register-purchase", {
    method: "POST",
    json: { session_hash: ti.hash, cart: b64(cart), order_amount: cart.total, order_id: orderId },
  });
  expect(res.status).toBe(200);
  return { token: access_token, hash: ti.hash, tradeInId: ti.id, order: await res.json() };
}

async function exported(h: Harness): Promise<Record<string, unknown>> {
  const res = await h.control("GET", "/state");
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function ordersOf(h: Harness, token: string) {
  const res = await h.api(token, "/payments/orders/");
  expect(res.status).toBe(200);
  return ((await res.json()) as { orders: Record<string, unknown>[] }).orders;
}

describe("GET and PUT /__emulator/state", () => {
  it("round-trips: a fresh emulator given the export serves the same order, session and token", async () => {
    const made = await purchase(a, "SO-SNAP-1");
    await a.control("POST", "/clock/advance", { minutes: 5 });
    const snapshot = await exported(a);

    const put = await b.control("PUT", "/state", snapshot);
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ status: "loaded", orders: 1, sessions: 1 });

    // The token issued by the first emulator is valid on the second: tokens are state too.
    expect(await ordersOf(b, made.token)).toEqual(await ordersOf(a, made.token));
    const [order] = await ordersOf(b, made.token);
    expect(order).toMatchObject({ order_id: "SO-SNAP-1", cart_id: made.order.cart_id });
    const session = await b.api(made.token, `/core/sessions/${made.hash}/`);
    expect(session.status).toBe(200);
    const item = await b.api(made.token, `/core/tradeinitems/${made.tradeInId}/`);
    expect(item.status).toBe(200);

    // The clock moved with it, and the next ids continue the saved counters.
    const clockA = (await (await a.control("GET", "/clock")).json()) as { offset_ms: number };
    const clockB = (await (await b.control("GET", "/clock")).json()) as { offset_ms: number };
    expect(clockB.offset_ms).toBe(clockA.offset_ms);
    expect(await exported(b)).toEqual(snapshot);
    const next = await purchase(b, "SO-SNAP-2");
    expect(next.order.order_id).toBe("SO-SNAP-2");
    const ids = (await ordersOf(b, next.token)).map((o) => o.id);
    expect(new Set(ids).size).toBe(2);
  });

  it("keeps the webhook queue: a notification not yet sent is still due after the move", async () => {
    // Held for an hour, so it is still scheduled when exported (set-up through ctx: the
    // notification of a Service Pay payment, without driving the SDK).
    await a.control("PUT", "/webhooks/settings", { first_attempt_delay_seconds: 3600 });
    const created = await a.control("POST", "/orders", { cart_id: "cart-w", amount: 10000 });
    expect(created.status).toBe(201);
    const order = [...a.ctx.state.orders.values()][0];
    if (!order) throw new Error("no order");
    const notification = webhooksFor(a.ctx).notifyOrder(order);

    expect((await b.control("PUT", "/state", await exported(a))).status).toBe(200);
    const listed = (await (await b.control("GET", "/webhooks")).json()) as {
      notifications: { id: string; status: string; next_attempt_at: number; body: string }[];
    };
    expect(listed.notifications).toEqual([
      expect.objectContaining({
        id: notification.id,
        status: "scheduled",
        next_attempt_at: notification.next_attempt_at,
        body: notification.body,
      }),
    ]);
  });

  it("loads a file saved before the merchants' readings, session uuids and the id prefix existed", async () => {
    const made = await purchase(a, "SO-OLD");
    const snapshot = (await exported(a)) as unknown as OldSnapshot;
    const { id_prefix: _prefix, ...state } = snapshot.state;
    const old = {
      ...snapshot,
      state: {
        ...state,
        merchants: state.merchants.map(
          ({ session_versioning, session_id_form, tradein_item_form, ...m }) => m,
        ),
        sessions: state.sessions.map((x) => ({
          ...x,
          versions: x.versions.map(({ uuid, ...v }) => v),
        })),
      },
    };
    expect((await b.control("PUT", "/state", old)).status).toBe(200);
    expect((await ordersOf(b, made.token)).map((o) => o.order_id)).toEqual(["SO-OLD"]);
    const merchants = (await (await b.control("GET", "/merchants")).json()) as {
      merchants: Record<string, unknown>[];
    };
    expect(merchants.merchants[0]).toMatchObject({
      session_versioning: "as_is",
      session_id_form: "hash_version",
      tradein_item_form: "object",
    });
  });

  it.each([
    ["not JSON", "not valid JSON", "{"],
    ["an empty object", "state:", "{}"],
    [
      "a wrong version",
      "state.version",
      (s: Snapshot) => ({ ...s, state: { ...s.state, version: 2 } }),
    ],
    [
      "an order amount written as a fraction",
      "state.orders.0.amount",
      (s: Snapshot) => ({
        ...s,
        state: { ...s.state, orders: s.state.orders.map((o) => ({ ...o, amount: 10.5 })) },
      }),
    ],
    [
      "an order of an unknown merchant",
      "state.orders.0.merchant_id: unknown merchant m_nobody",
      (s: Snapshot) => ({
        ...s,
        state: {
          ...s.state,
          orders: s.state.orders.map((o) => ({ ...o, merchant_id: "m_nobody" })),
        },
      }),
    ],
    [
      "a session without versions",
      "state.sessions.0.versions",
      (s: Snapshot) => ({
        ...s,
        state: { ...s.state, sessions: s.state.sessions.map((x) => ({ ...x, versions: [] })) },
      }),
    ],
  ])(
    "answers 400 with the contract error body for %s, and changes nothing",
    async (_, why, bad) => {
      await purchase(a, "SO-SOURCE");
      const good = (await exported(a)) as unknown as Snapshot;
      // b holds its own state; a bad snapshot must leave every part of it as it was.
      const own = await purchase(b, "SO-KEEP");
      await b.control("POST", "/clock/advance", { minutes: 30 });
      await b.control("POST", "/faults", { endpoint: "orders_list", latency_ms: 1 });
      const before = await exported(b);
      const faultsBefore = await (await b.control("GET", "/faults")).json();

      const body = typeof bad === "string" ? bad : JSON.stringify(bad(good));
      const res = await fetch(`${b.url}/__emulator/state`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body,
      });
      const error = await errorOf(res);
      expect(error).toMatchObject({ status: 400, error: "bad_request" });
      expect(error.error_description).toContain(why);

      expect(await exported(b)).toEqual(before);
      expect(await (await b.control("GET", "/faults")).json()).toEqual(faultsBefore);
      expect((await ordersOf(b, own.token)).map((o) => o.order_id)).toEqual(["SO-KEEP"]);
    },
  );

  it("answers 413 with the contract error body for a snapshot over the size bound", async () => {
    const before = await exported(b);
    const res = await fetch(`${b.url}/__emulator/state`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: `{"pad":"${"x".repeat(MAX_SNAPSHOT_BYTES)}"}`,
    });
    expect(await errorOf(res)).toMatchObject({ status: 413, error: "payload_too_large" });
    expect(await exported(b)).toEqual(before);
  });

  it("is part of the control API: a foreign Origin gets 403", async () => {
    const res = await fetch(`${a.url}/__emulator/state`, {
      headers: { origin: "https://evil.example" },
    });
    expect(await errorOf(res)).toMatchObject({ status: 403, error: "forbidden" });
  });
});

interface Snapshot {
  state: {
    version: number;
    orders: Record<string, unknown>[];
    sessions: Record<string, unknown>[];
  };
}

interface OldSnapshot {
  state: {
    id_prefix?: string;
    merchants: Record<string, unknown>[];
    sessions: { versions: Record<string, unknown>[] }[];
  };
}
