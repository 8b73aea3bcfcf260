import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Clock } from "../clock";
import type { Order } from "../domain";
import { Journal } from "../journal";
import { SEED } from "../state/seed";
import { Store } from "../state/store";
import { RETRY_SCHEDULE_MS, WebhookDispatcher } from "./dispatcher";

type Hit = { headers: IncomingHttpHeaders; raw: Buffer; at: number };
type Answer = number | "hang";

/** A merchant's webhook endpoint: records the raw bytes and answers what the test says. */
class Receiver {
  hits: Hit[] = [];
  answer: (hit: Hit) => Answer | Promise<Answer> = () => 200;
  private server: Server | undefined;
  private hanging = new Set<() => void>();
  url = "";

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const hit = { headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
        this.hits.push(hit);
        const answer = await this.answer(hit);
        if (answer === "hang") {
          this.hanging.add(() => res.destroy());
          return;
        }
        res.writeHead(answer, { "content-type": "application/json" });
        res.end(answer === 204 ? undefined : '{"ok":true}');
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}

const SECRET = "u_demo_admin-m_demo";

function verify(hit: Hit, secret = SECRET): boolean {
  // Independent of the code under test: node:crypto over the exact bytes received.
  const expected = createHmac("sha256", secret).update(hit.raw).digest();
  const given = Buffer.from(String(hit.headers["x-service-signature"] ?? ""), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let clock: Clock;
let store: Store;
let journal: Journal;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;

function order(overrides: Partial<Order> = {}): Order {
  return Object.assign(
    store.createOrder({
      merchant_id: "m_demo",
      cart_id: "cart-1",
      status: "payment_completed",
      amount: 79_860,
      currency: "EUR",
      trade_in_discount: 1_000,
      customer_id: "cust-1",
      payment: "ep1",
    }),
    overrides,
  );
}

/** Moves the emulator clock and waits for the attempts that became due. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  await dispatcher.idle();
}

beforeEach(async () => {
  clock = new Clock();
  store = new Store(SEED, clock);
  journal = new Journal(100);
  receiver = new Receiver();
  await receiver.start();
  store.updateMerchant("m_demo", { webhook_base: receiver.url });
  dispatcher = quickDispatcher(10_000);
});

/** The real-time poll is off (1 h): only the clock moves attempts in these tests. An attempt's
 *  time limit is real time, so the tests that get an answer have a limit no loaded machine's
 *  loopback reaches (300 ms was reached under load: the request never arrived in time). */
function quickDispatcher(timeoutMs: number): WebhookDispatcher {
  const created = new WebhookDispatcher({
    clock,
    journal,
    state: store,
    pollMs: 3_600_000,
    timeoutMs,
  });
  created.start();
  return created;
}

afterEach(async () => {
  dispatcher.stop();
  await receiver.stop();
});

describe("delivery", () => {
  it("POSTs the flat body to {webhook_base}/order at once, signed over the exact bytes", async () => {
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    expect(receiver.hits).toHaveLength(1);
    const hit = receiver.hits[0] as Hit;
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(hit.headers["x-service-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(verify(hit)).toBe(true);
    // Not the client secret: that is the classic mistake.
    expect(verify(hit, "demo-client-secret")).toBe(false);
    expect(JSON.parse(hit.raw.toString("utf8"))).toEqual({
      id: notification.id,
      event: "order.payment_completed",
      created_at: expect.any(String),
      order_id: notification.order_id,
      cart_id: "cart-1",
      status: "payment_completed",
      amount: 79_860,
      currency: "EUR",
      trade_in_discount: 1_000,
      customer_id: "cust-1",
    });
    expect(hit.raw.toString("utf8")).toBe(notification.body);
    expect(dispatcher.get(notification.id)).toMatchObject({
      status: "delivered",
      next_attempt_at: null,
    });
  });

  it("sends the wrapped form (cart_id and status inside data) when the merchant chose it", async () => {
    store.updateMerchant("m_demo", { webhook_form: "wrapped" });
    dispatcher.notifyOrder(order());
    await dispatcher.idle();
    const body = JSON.parse((receiver.hits[0] as Hit).raw.toString("utf8"));
    expect(body.data).toEqual({ cart_id: "cart-1", status: "payment_completed" });
    expect(body).not.toHaveProperty("cart_id");
    expect(body).not.toHaveProperty("status");
    expect(body).toMatchObject({ order_id: expect.any(String), amount: 79_860 });
    expect(verify(receiver.hits[0] as Hit)).toBe(true);
  });

  it.each([201, 204, 202, 302, 403, 500])(
    "treats %i as a failure and schedules a retry",
    async (status) => {
      receiver.answer = () => status;
      const notification = dispatcher.notifyOrder(order());
      await dispatcher.idle();
      expect(notification.attempts).toEqual([
        expect.objectContaining({ n: 1, kind: "scheduled", status, ok: false }),
      ]);
      expect(notification.status).toBe("scheduled");
      expect(notification.failures).toBe(1);
      expect(notification.next_attempt_at).toBeGreaterThanOrEqual(
        clock.now() + (RETRY_SCHEDULE_MS[0] as number) - 50,
      );
    },
  );
});

describe("retries on the emulator clock", () => {
  it("documents the schedule: 10 s doubling, 10 retries", () => {
    expect(RETRY_SCHEDULE_MS.map((ms) => ms / 1000)).toEqual([
      10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120,
    ]);
  });

  it("fires a due retry only once the clock reaches it, and stops after a 200", async () => {
    receiver.answer = () => 500;
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    await advance(9_000);
    expect(receiver.hits).toHaveLength(1);
    await advance(1_100);
    expect(receiver.hits).toHaveLength(2);
    await advance(19_000);
    expect(receiver.hits).toHaveLength(2);
    receiver.answer = () => 200;
    await advance(1_100);
    expect(receiver.hits).toHaveLength(3);
    expect(notification.status).toBe("delivered");
    await advance(24 * 3_600_000);
    expect(receiver.hits).toHaveLength(3);
    // The same bytes every time, so the receiver can de-duplicate by id.
    expect(new Set(receiver.hits.map((h) => h.raw.toString("utf8"))).size).toBe(1);
    expect(receiver.hits.every((h) => verify(h))).toBe(true);
  });

  it("gives up after the last retry: 11 attempts, then failed", async () => {
    receiver.answer = () => 503;
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    for (const wait of RETRY_SCHEDULE_MS) await advance(wait + 100);
    expect(receiver.hits).toHaveLength(11);
    expect(notification).toMatchObject({ status: "failed", next_attempt_at: null, failures: 11 });
    await advance(7 * 24 * 3_600_000);
    expect(receiver.hits).toHaveLength(11);
  });

  it("counts no answer within the timeout as a failure and retries", async () => {
    // The one test that waits out an attempt's limit in real time: 1 s, the retry's answer
    // within it on any machine.
    dispatcher.stop();
    dispatcher = quickDispatcher(1_000);
    receiver.answer = () => "hang";
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    expect(notification.attempts[0]).toMatchObject({
      status: 0,
      ok: false,
      error: "no answer within 1 s",
    });
    expect(notification.status).toBe("scheduled");
    receiver.answer = () => 200;
    await advance(RETRY_SCHEDULE_MS[0] as number);
    expect(notification.status).toBe("delivered");
  });

  it("retries a refused connection", async () => {
    store.updateMerchant("m_demo", { webhook_base: "http://127.0.0.1:9/nowhere" });
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    expect(notification.attempts[0]).toMatchObject({
      status: 0,
      ok: false,
      error: expect.any(String),
    });
    expect(notification.url).toBe("http://127.0.0.1:9/nowhere/order");
    expect(notification.status).toBe("scheduled");
  });
});

describe("delivery faults (control API)", () => {
  it("unreachable: the merchant gets nothing; answer_lost: it gets the request, the service not its answer", async () => {
    expect(dispatcher.failNextDeliveries(["unreachable", "answer_lost"])).toEqual([
      "unreachable",
      "answer_lost",
    ]);
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    expect(receiver.hits).toHaveLength(0);
    expect(notification.attempts[0]).toMatchObject({
      status: 0,
      ok: false,
      error: "delivery fault (control API): the request did not reach the merchant",
    });
    expect(notification.status).toBe("scheduled");

    await advance(RETRY_SCHEDULE_MS[0] as number);
    expect(receiver.hits).toHaveLength(1);
    expect(notification.attempts[1]).toMatchObject({
      status: 0,
      ok: false,
      error: "delivery fault (control API): the merchant answered 200, the answer was lost",
    });
    expect(notification).toMatchObject({ status: "scheduled", failures: 2 });

    // The faults are used up: the next retry is delivered, the same bytes once more.
    expect(dispatcher.deliveryFaults).toEqual([]);
    await advance(RETRY_SCHEDULE_MS[1] as number);
    expect(receiver.hits).toHaveLength(2);
    expect(notification.attempts.map((a) => a.status)).toEqual([0, 0, 200]);
    expect(notification.status).toBe("delivered");
    expect(new Set(receiver.hits.map((h) => h.raw.toString("utf8"))).size).toBe(1);
    expect(receiver.hits.every((h) => verify(h))).toBe(true);
  });

  it("a control operation's send takes no fault; a reset drops the unused ones", async () => {
    dispatcher.firstAttemptDelayMs = 60_000;
    const notification = dispatcher.notifyOrder(order());
    dispatcher.failNextDeliveries(["unreachable"]);
    const attempt = await dispatcher.redeliver(notification.id);
    expect(attempt).toMatchObject({ kind: "redeliver", status: 200, ok: true });
    expect(receiver.hits).toHaveLength(1);
    expect(dispatcher.deliveryFaults).toEqual(["unreachable"]);
    dispatcher.reset();
    expect(dispatcher.deliveryFaults).toEqual([]);
  });
});

describe("delivery faults for one merchant (several merchants in one emulator)", () => {
  it("only that merchant's attempts take them; another merchant's go out; its reset drops them", async () => {
    store.updateMerchant("m_basic", { webhook_base: receiver.url });
    expect(dispatcher.failNextDeliveries(["unreachable"], "m_demo")).toEqual(["unreachable"]);
    expect(dispatcher.deliveryFaults).toEqual([]);

    // The other merchant's attempt is delivered and leaves A's fault in place.
    const other = dispatcher.notifyOrder(order({ merchant_id: "m_basic" }));
    await dispatcher.idle();
    expect(other.status).toBe("delivered");
    expect(dispatcher.deliveryFaultsOf("m_demo")).toEqual(["unreachable"]);

    const own = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    expect(own.attempts[0]).toMatchObject({ status: 0, ok: false });
    expect(receiver.hits).toHaveLength(1);
    expect(dispatcher.deliveryFaultsOf("m_demo")).toEqual([]);

    dispatcher.failNextDeliveries(["answer_lost"], "m_demo");
    dispatcher.resetMerchant("m_basic");
    expect(dispatcher.deliveryFaultsOf("m_demo")).toEqual(["answer_lost"]);
    dispatcher.resetMerchant("m_demo");
    expect(dispatcher.deliveryFaultsOf("m_demo")).toEqual([]);
  });
});

describe("journal", () => {
  it("records every attempt with its number, status and notification, signature redacted", async () => {
    receiver.answer = (hit) => (receiver.hits.indexOf(hit) === 0 ? 204 : 200);
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    await advance(RETRY_SCHEDULE_MS[0] as number);
    const entries = journal.read({ kind: "webhook" });
    expect(entries.map((e) => [e.attempt, e.status])).toEqual([
      [1, 204],
      [2, 200],
    ]);
    expect(entries[0]).toMatchObject({
      method: "POST",
      path: `${receiver.url}/order`,
      meta: { notification_id: notification.id, kind: "scheduled", ok: false },
      request_headers: { "x-service-signature": "***" },
    });
    expect(entries[1]?.request_body).toMatchObject({ id: notification.id });
  });
});

describe("control operations", () => {
  it("redeliver sends the same notification again", async () => {
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    const attempt = await dispatcher.redeliver(notification.id);
    expect(attempt).toMatchObject({ n: 2, kind: "redeliver", status: 200, ok: true });
    expect(receiver.hits.map((h) => h.raw.toString())).toEqual([
      notification.body,
      notification.body,
    ]);
  });

  it("twice sends two identical requests at the same moment", async () => {
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    // Each request waits for the other to arrive: sequential sends would time out (status 0).
    let release: () => void = () => {};
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.answer = async () => {
      if (receiver.hits.length === 3) release();
      await bothArrived;
      return 200;
    };
    const attempts = await dispatcher.sendTwice(notification.id);
    expect(attempts.map((a) => [a.n, a.status]).sort()).toEqual([
      [2, 200],
      [3, 200],
    ]);
    expect(receiver.hits).toHaveLength(3);
    expect(receiver.hits.slice(1).every((h) => verify(h))).toBe(true);
  });

  it("reorder delivers the later notification before the earlier one", async () => {
    dispatcher.firstAttemptDelayMs = 60_000;
    const earlier = dispatcher.notifyOrder(order({ cart_id: "cart-a" }));
    const later = dispatcher.notifyOrder(order({ cart_id: "cart-b" }));
    await dispatcher.reorder(earlier.id, later.id);
    expect(receiver.hits.map((h) => JSON.parse(h.raw.toString()).id)).toEqual([
      later.id,
      earlier.id,
    ]);
    expect(earlier.status).toBe("delivered");
  });

  it("delay holds a notification until the clock passes it", async () => {
    dispatcher.firstAttemptDelayMs = 5_000;
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.tick();
    expect(receiver.hits).toHaveLength(0);
    dispatcher.delay(notification.id, 120_000);
    await advance(60_000);
    expect(receiver.hits).toHaveLength(0);
    await advance(60_000);
    expect(receiver.hits).toHaveLength(1);
    expect(notification.status).toBe("delivered");
  });

  it("wrong signature: signed with another key, the receiver's 403 does not change the state", async () => {
    const notification = dispatcher.notifyOrder(order());
    await dispatcher.idle();
    receiver.answer = (hit) => (verify(hit) ? 200 : 403);
    const attempt = await dispatcher.sendWithWrongSignature(notification.id);
    expect(attempt).toMatchObject({ kind: "wrong_signature", status: 403, ok: false });
    expect(verify(receiver.hits[1] as Hit)).toBe(false);
    expect(notification.status).toBe("delivered");
  });

  it("unknown ids are reported", async () => {
    await expect(dispatcher.redeliver("wh_nope")).rejects.toThrow(
      "No webhook notification wh_nope",
    );
  });
});
