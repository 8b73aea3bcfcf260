// The order webhook dispatcher (contract: Events, Webhook). A completed Service Pay payment
// queues a notification; its first attempt goes out at once. Only exactly 200 is success
// (Merchant endpoints, rule 2); any other status, a transport error or no answer within 30 s is
// retried on RETRY_SCHEDULE_MS. Due times are on the emulator clock, so advancing the clock
// makes due retries fire. Every attempt goes into the journal.
import type { Clock } from "../clock";
import type { Millis, Order } from "../domain";
import type { Journal } from "../journal";
import type { Store } from "../state/store";
import { type WebhookEvent, webhookBody } from "./body";
import { SIGNATURE_HEADER, sign, signingSecret, wrongSecret } from "./signature";

const SECOND = 1000;

/** Wait after the n-th failed scheduled attempt: 10 s doubling, 10 retries (about 2.8 h). */
export const RETRY_SCHEDULE_MS: readonly Millis[] = Array.from(
  { length: 10 },
  (_, n) => 10 * SECOND * 2 ** n,
);

/** Contract: a receiver should allow more than 30 s to answer; the service waits 30 s. */
export const ATTEMPT_TIMEOUT_MS = 30 * SECOND;

const INJECTED = "delivery fault (control API)";

export type NotificationStatus = "scheduled" | "delivered" | "failed";

/**
 * An injected failure of a scheduled attempt (control API: delivery faults), for a merchant's
 * tests of the retry path: `unreachable` never reaches the merchant (a refused connection);
 * `answer_lost` reaches it, but its answer never comes back (as after a dropped connection), so
 * the attempt counts as no answer and the merchant receives the same notification again.
 */
export type DeliveryFault = "unreachable" | "answer_lost";

/** Why an attempt was made: the schedule, or one of the control API's operations. */
export type AttemptKind = "scheduled" | "redeliver" | "twice" | "reorder" | "wrong_signature";

export interface Attempt {
  n: number;
  kind: AttemptKind;
  at: string;
  /** HTTP status, or 0 when there was no answer (timeout, refused connection). */
  status: number;
  duration_ms: number;
  ok: boolean;
  error?: string;
}

export interface Notification {
  id: string;
  event: WebhookEvent;
  merchant_id: string;
  order_id: string;
  cart_id: string;
  url: string;
  /** The exact bytes sent and signed. */
  body: string;
  created_at: string;
  status: NotificationStatus;
  /** Emulator clock time of the next scheduled attempt; null when none is due. */
  next_attempt_at: Millis | null;
  /** Failed scheduled attempts so far (the position in the retry schedule). */
  failures: number;
  attempts: Attempt[];
}

export interface DispatcherOptions {
  clock: Clock;
  journal: Journal;
  state: Store;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** How often (real time) due attempts are checked for. */
  pollMs?: number;
}

export class WebhookDispatcher {
  readonly #clock: Clock;
  readonly #journal: Journal;
  readonly #state: Store;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #pollMs: number;
  #notifications = new Map<string, Notification>();
  #secrets = new Map<string, string>();
  #inFlight = new Map<string, Promise<unknown>>();
  #controlSends = 0;
  /** Attempts started per notification (numbered before they answer: two may run at once). */
  #started = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Extra wait before the first attempt of new notifications (control: "delay"). */
  firstAttemptDelayMs: Millis = 0;
  /** Faults for the next scheduled attempts, first one first, whichever notification. */
  #deliveryFaults: DeliveryFault[] = [];
  /** Delivery faults for one merchant's notifications only (several merchants, one emulator). */
  readonly #merchantDeliveryFaults = new Map<string, DeliveryFault[]>();

  constructor(options: DispatcherOptions) {
    this.#clock = options.clock;
    this.#journal = options.journal;
    this.#state = options.state;
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    this.#pollMs = options.pollMs ?? 250;
  }

  /** Starts the real-time poll and reacts to clock jumps at once. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick(), this.#pollMs);
    this.#timer.unref?.();
    this.#unsubscribe = this.#clock.onChange(() => void this.tick());
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  reset(): void {
    this.#notifications.clear();
    this.#secrets.clear();
    this.#started.clear();
    // Notification ids keep counting (the store's counters survive a reset and are saved with
    // --state): ids are "unique per notification", and a merchant that dedupes by id keeps them.
    this.firstAttemptDelayMs = 0;
    this.#deliveryFaults = [];
    this.#merchantDeliveryFaults.clear();
  }

  /** One merchant's reset: its notifications leave the queue; other merchants' stay. */
  resetMerchant(merchantId: string): void {
    this.#merchantDeliveryFaults.delete(merchantId);
    for (const [id, notification] of this.#notifications) {
      if (notification.merchant_id !== merchantId) continue;
      this.#notifications.delete(id);
      this.#secrets.delete(id);
      this.#started.delete(id);
    }
  }

  /** Control: the next scheduled attempts fail, one per fault, in order; then they go out again.
   *  With a merchant, only that merchant's attempts take them (before any unscoped fault). */
  failNextDeliveries(faults: readonly DeliveryFault[], merchantId?: string): DeliveryFault[] {
    if (merchantId === undefined) {
      this.#deliveryFaults.push(...faults);
      return this.deliveryFaults;
    }
    const queue = this.#merchantDeliveryFaults.get(merchantId) ?? [];
    queue.push(...faults);
    this.#merchantDeliveryFaults.set(merchantId, queue);
    return this.deliveryFaultsOf(merchantId);
  }

  /** The unscoped delivery faults not used yet. */
  get deliveryFaults(): DeliveryFault[] {
    return [...this.#deliveryFaults];
  }

  /** One merchant's delivery faults not used yet. */
  deliveryFaultsOf(merchantId: string): DeliveryFault[] {
    return [...(this.#merchantDeliveryFaults.get(merchantId) ?? [])];
  }

  #takeDeliveryFault(merchantId: string): DeliveryFault | undefined {
    const own = this.#merchantDeliveryFaults.get(merchantId);
    const fault = own?.shift();
    if (own && own.length === 0) this.#merchantDeliveryFaults.delete(merchantId);
    return fault ?? this.#deliveryFaults.shift();
  }

  /** Queues the notification of an order's new status; the first attempt is due now. */
  notifyOrder(order: Order, event: WebhookEvent = "order.payment_completed"): Notification {
    const merchant = this.#state.getMerchant(order.merchant_id);
    if (!merchant) throw new Error(`unknown merchant ${order.merchant_id}`);
    const id = this.#state.nextId("wh");
    const created_at = this.#clock.iso(this.#clock.now(merchant.id));
    const notification: Notification = {
      id,
      event,
      merchant_id: merchant.id,
      order_id: order.order_id,
      cart_id: order.cart_id,
      url: `${merchant.webhook_base.replace(/\/+$/, "")}/order`,
      body: webhookBody({ id, event, created_at, order }, merchant.webhook_form),
      created_at,
      status: "scheduled",
      next_attempt_at: this.#clock.now(merchant.id) + this.firstAttemptDelayMs,
      failures: 0,
      attempts: [],
    };
    this.#notifications.set(id, notification);
    this.#secrets.set(id, signingSecret(this.#state, merchant.id));
    // The first attempt starts now (contract: delivered within about 5 s of the payment).
    if (this.firstAttemptDelayMs === 0) void this.tick();
    return notification;
  }

  /** The queue, for `--state`: a restart resumes the retries where they were. */
  snapshot(): Notification[] {
    return structuredClone(this.list());
  }

  restore(notifications: Notification[]): void {
    this.#notifications = new Map(notifications.map((n) => [n.id, structuredClone(n)]));
  }

  list(): Notification[] {
    return [...this.#notifications.values()];
  }

  get(id: string): Notification | undefined {
    return this.#notifications.get(id);
  }

  /** Sends every due notification that is not already in flight; resolves when they answered. */
  async tick(): Promise<void> {
    // Each notification is due on its merchant's clock.
    const due = this.list().filter(
      (n) =>
        n.status === "scheduled" &&
        n.next_attempt_at !== null &&
        n.next_attempt_at <= this.#clock.now(n.merchant_id) &&
        !this.#inFlight.has(n.id),
    );
    await Promise.all(due.map((n) => this.#scheduledAttempt(n)));
  }

  /** Waits for every attempt in flight (tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  /** Control: send once more now, whatever the status. A 200 marks it delivered. */
  async redeliver(id: string): Promise<Attempt> {
    return this.#send(this.#require(id), "redeliver");
  }

  /** Control: the same notification twice at the same moment (idempotency of the receiver). */
  async sendTwice(id: string): Promise<Attempt[]> {
    const notification = this.#require(id);
    return Promise.all([this.#send(notification, "twice"), this.#send(notification, "twice")]);
  }

  /** Control: move the next attempt `ms` later on the clock (re-sends a delivered one then). */
  delay(id: string, ms: Millis): Notification {
    const notification = this.#require(id);
    notification.status = "scheduled";
    notification.next_attempt_at = this.#clock.now(notification.merchant_id) + ms;
    return notification;
  }

  /** Control: deliver `later` before `earlier` (out-of-order delivery), one after the other. */
  async reorder(earlier: string, later: string): Promise<Attempt[]> {
    const first = this.#require(later);
    const second = this.#require(earlier);
    const a = await this.#send(first, "reorder");
    const b = await this.#send(second, "reorder");
    return [a, b];
  }

  /** Control: one attempt signed with the wrong key; a correct receiver answers 403. */
  async sendWithWrongSignature(id: string): Promise<Attempt> {
    return this.#send(this.#require(id), "wrong_signature");
  }

  #require(id: string): Notification {
    const notification = this.#notifications.get(id);
    if (!notification) throw new UnknownNotificationError(id);
    return notification;
  }

  /** One attempt of the schedule, then the next due time (or `failed` after the last retry). */
  #scheduledAttempt(notification: Notification): Promise<void> {
    const run = this.#deliver(notification, "scheduled")
      .then((attempt) => {
        if (notification.status !== "scheduled" || attempt.ok) return;
        notification.failures += 1;
        const wait = RETRY_SCHEDULE_MS[notification.failures - 1];
        if (wait === undefined) {
          notification.status = "failed";
          notification.next_attempt_at = null;
        } else {
          notification.next_attempt_at = this.#clock.now(notification.merchant_id) + wait;
        }
      })
      .finally(() => this.#inFlight.delete(notification.id));
    this.#inFlight.set(notification.id, run);
    return run;
  }

  /** A control operation's extra attempt; it does not move the retry schedule. */
  #send(notification: Notification, kind: Exclude<AttemptKind, "scheduled">): Promise<Attempt> {
    const key = `${notification.id}:${kind}:${++this.#controlSends}`;
    const run = this.#deliver(notification, kind).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, run);
    return run;
  }

  async #deliver(notification: Notification, kind: AttemptKind): Promise<Attempt> {
    const secret =
      kind === "wrong_signature"
        ? wrongSecret(this.#state, notification.merchant_id)
        : (this.#secrets.get(notification.id) ??
          signingSecret(this.#state, notification.merchant_id));
    const headers = {
      "content-type": "application/json",
      "user-agent": "service-emulator-webhooks/1",
      [SIGNATURE_HEADER.toLowerCase()]: sign(notification.body, secret),
    };
    const n = (this.#started.get(notification.id) ?? 0) + 1;
    this.#started.set(notification.id, n);
    const at = this.#clock.now(notification.merchant_id);
    const started = performance.now();
    let status = 0;
    let responseText: string | undefined;
    let error: string | undefined;
    // Only the schedule's own attempts take a fault: a control operation is an explicit send.
    const fault =
      kind === "scheduled" ? this.#takeDeliveryFault(notification.merchant_id) : undefined;
    if (fault === "unreachable") {
      error = `${INJECTED}: the request did not reach the merchant`;
    } else {
      try {
        const response = await this.#fetch(notification.url, {
          method: "POST",
          headers,
          body: notification.body,
          signal: AbortSignal.timeout(this.#timeoutMs),
          redirect: "manual",
        });
        status = response.status;
        responseText = (await response.text()).slice(0, 4096);
      } catch (caught) {
        const name = caught instanceof Error ? caught.name : "";
        error =
          name === "TimeoutError" || name === "AbortError"
            ? `no answer within ${this.#timeoutMs / SECOND} s`
            : `${caught instanceof Error ? ((caught.cause as Error | undefined)?.message ?? caught.message) : caught}`;
      }
      if (fault === "answer_lost" && !error) {
        error = `${INJECTED}: the merchant answered ${status}, the answer was lost`;
        status = 0;
      }
    }
    const duration_ms = Math.round(performance.now() - started);
    // Contract, Merchant endpoints rule 2: exactly 200; 201, 204 and other 2xx do not count.
    const ok = status === 200;
    const attempt: Attempt = {
      n,
      kind,
      at: this.#clock.iso(at),
      status,
      duration_ms,
      ok,
      ...(error ? { error } : {}),
    };
    notification.attempts.push(attempt);
    if (ok && kind !== "wrong_signature" && notification.status !== "delivered") {
      notification.status = "delivered";
      notification.next_attempt_at = null;
    }
    // A reset (of everything or of this merchant) dropped the notification while the attempt
    // was out: the attempt belongs to the run the reset ended, not to the next one's journal.
    if (this.#notifications.get(notification.id) !== notification) return attempt;
    this.#journal.recordWebhook({
      at,
      merchant_id: notification.merchant_id,
      url: notification.url,
      status,
      duration_ms,
      attempt: n,
      request_headers: headers,
      request_body: notification.body,
      ...(responseText !== undefined ? { response_body: responseText } : {}),
      ...(error ? { error } : {}),
      meta: {
        notification_id: notification.id,
        event: notification.event,
        order_id: notification.order_id,
        kind,
        ok,
      },
    });
    return attempt;
  }
}

export class UnknownNotificationError extends Error {
  constructor(readonly id: string) {
    super(`No webhook notification ${id}.`);
  }
}
