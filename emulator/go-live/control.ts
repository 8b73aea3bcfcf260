// The journeys' client of the emulator's control API (emulator/README.md, "Control API"): what
// the service stored, read as a test reads it. Every answer is validated (zod) and bounded in
// size before a journey believes it.
// zod/mini: the same checks, tree-shaken to a few kB in the tarball's go-live bundle.
import * as z from "zod/mini";
import type { RegisterPurchaseReceipt, ServiceOrder } from "./compare.js";

/** The control API answers at most this much JSON to a journey (the journal's 2000 entries fit). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A control call's bound: the emulator answers in milliseconds; none at all means it is down. */
const CALL_TIMEOUT_MS = 5_000;

const cents = z.int();
const many = z.maxLength(100_000);
const ordersAnswer = z.object({
  orders: z
    .array(z.object({ order_id: z.string(), amount: cents, trade_in_discount: cents }))
    .check(many),
});
const receiptsAnswer = z.object({
  receipts: z
    .array(
      z.object({
        order_id: z.string(),
        order_amount: cents,
        status: z.int(),
        duplicate: z.optional(z.boolean()),
      }),
    )
    .check(many),
});
const webhooksAnswer = z.object({
  notifications: z.array(z.object({ order_id: z.string(), status: z.string() })).check(many),
});
const journalAnswer = z.object({
  entries: z
    .array(
      z.looseObject({
        path: z.optional(z.string()),
        status: z.optional(z.number()),
        request_body: z.optional(z.unknown()),
      }),
    )
    .check(many),
});
const readinessAnswer = z.object({
  groups: z
    .array(
      z.object({
        rules: z
          .array(z.object({ id: z.string(), verdict: z.string(), note: z.string() }))
          .check(z.maxLength(1000)),
      }),
    )
    .check(z.maxLength(100)),
});
/** One rule of the readiness report as judged now (emulator/README.md, "Go-live readiness"). */
export interface ReadinessVerdict {
  /** The rule's id, e.g. `api.backoff`. */
  id: string;
  /** `pass`, `fail` or `not_exercised`. */
  verdict: string;
  /** What was seen, in a plain sentence. */
  note: string;
}

/** One journaled request (emulator/README.md, "Journal"); other fields are kept as sent. */
export interface JournalEntry {
  /** The request's path, e.g. `/register-purchase`. */
  path?: string;
  /** The HTTP status the emulator answered. */
  status?: number;
  /** The request's JSON body as received, when it had one. */
  request_body?: unknown;
  [field: string]: unknown;
}

/** The emulator's control API (`/__emulator`) as the go-live journeys read it: what the service
 *  stored (orders, register-purchases, webhooks, the journal, the readiness report). */
export class EmulatorControl {
  /** The control API's base URL: the emulator's origin and `/__emulator`. */
  readonly url: string;

  constructor(emulatorUrl: string) {
    this.url = `${new URL(emulatorUrl).origin}/__emulator`;
  }

  /**
   * One control API call: `path` is under `/__emulator` (e.g. `/clock/advance` is
   * `POST <emulator>/__emulator/clock/advance`). Throws on a non-2xx answer, naming it, and when
   * the emulator does not answer within `timeoutMs` (no connection, a wrong URL).
   */
  async call(
    method: string,
    path: string,
    body?: unknown,
    { timeoutMs = CALL_TIMEOUT_MS }: { timeoutMs?: number } = {},
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error ? (error.cause ?? error) : error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new Error(
        `The emulator at ${new URL(this.url).origin} did not answer ${method} /__emulator${path} ` +
          `(${reason}). Start it (\`npx service-emulator --port <port> --shop-url <shop>\`) ` +
          "or pass the URL it listens on as emulatorUrl.",
      );
    }
    const text = await response.text();
    if (text.length > MAX_ANSWER_BYTES) throw new Error(`${method} ${path}: answer too large`);
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** Resolves when the emulator answers its health check; throws at once, saying what to
   *  change, when it does not (the go-live journeys call it before their first step). */
  async ensureReachable(): Promise<void> {
    await this.call("GET", "/health");
  }

  /** Declares a shopper's raw session id and salt (as the shop keeps them, never sent to the
   *  service), so the readiness rule privacy.raw-session looks for them in all traffic. */
  async declareRawSession(
    merchantId: string,
    raw: { sessionId: string; salt: string },
  ): Promise<void> {
    await this.call("POST", "/readiness/declare", {
      merchant_id: merchantId,
      session_id: raw.sessionId,
      salt: raw.salt,
    });
  }

  /** The readiness report's rules for `merchantId`, as judged from the traffic so far. */
  async readinessRules(merchantId: string): Promise<ReadinessVerdict[]> {
    const answer = await this.call("GET", `/readiness?merchant=${encodeURIComponent(merchantId)}`);
    return readinessAnswer.parse(answer).groups.flatMap((g) => g.rules);
  }

  /** The service's orders (Service Pay), newest last. */
  async orders(): Promise<ServiceOrder[]> {
    return ordersAnswer.parse(await this.call("GET", "/orders")).orders;
  }

  /** Every register-purchase the service received for the merchant's order `orderId`. */
  async receipts(orderId: string): Promise<RegisterPurchaseReceipt[]> {
    const { receipts } = receiptsAnswer.parse(await this.call("GET", "/register-purchases"));
    return receipts.filter((r) => r.order_id === orderId);
  }

  /** The status of the order webhooks sent for the service's order `orderId`. */
  async webhookStatuses(orderId: string): Promise<string[]> {
    const { notifications } = webhooksAnswer.parse(await this.call("GET", "/webhooks"));
    return notifications.filter((n) => n.order_id === orderId).map((n) => n.status);
  }

  /** The request journal's newest entries (Journal: a ring of the last 2000). */
  async requests(): Promise<JournalEntry[]> {
    const answer = await this.call("GET", "/journal?kind=request&limit=2000");
    return journalAnswer.parse(answer).entries as JournalEntry[];
  }
}
