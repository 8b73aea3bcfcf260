// Client for the bundled emulator's control API (emulator/README.md, "Control API"). Tests that
// use it carry `@emulator` in their title, so the suite can run against another SDK build and
// service with `SERVICE_ASSETS_URL=… npx playwright test --grep-invert @emulator`.
// Plain fetch from the test process: the control API is never journaled, rate limited or faulted.
import { expect, type Page } from "@playwright/test";
import { STACK } from "./stack";

// This worker's emulator (./stack.ts), unless a suite with one emulator of its own names it
// (playwright.cluster.config.ts sets EMULATOR_URL).
export const EMULATOR_URL = (process.env.EMULATOR_URL ?? STACK.emulatorUrl).replace(/\/+$/, "");

export interface WebhookAttempt {
  n: number;
  kind: "scheduled" | "redeliver" | "twice" | "reorder" | "wrong_signature";
  status: number;
  ok: boolean;
}

export interface WebhookNotification {
  id: string;
  order_id: string;
  cart_id: string;
  body: string;
  status: "scheduled" | "delivered" | "failed";
  attempts: WebhookAttempt[];
}

/** `unreachable`: the attempt never reaches the shop; `answer_lost`: it does, its answer not. */
export type WebhookDeliveryFault = "unreachable" | "answer_lost";

export interface JournalEntry {
  seq: number;
  kind: "request" | "webhook";
  [key: string]: unknown;
}

export interface MerchantPatch {
  products?: string;
  currency?: string;
  minimums?: { tradein?: number; ep1?: number };
  webhook_form?: "flat" | "wrapped";
  /** e.g. a dead address, so the order webhook never arrives (reconciliation tests) */
  webhook_base?: string;
  /** The contract's readings the emulator offers (./service-variants.ts). */
  session_versioning?: "as_is" | "regenerate";
  session_id_form?: "hash_version" | "uuid";
  tradein_item_form?: "object" | "id";
}

/** One register-purchase as the service received it (GET /__emulator/register-purchases):
 *  every request, duplicates included, so a test can assert the shop sent exactly one. */
export interface PurchaseReceipt {
  n: number;
  status: number;
  session_hash: string | null;
  order_id: string | null;
  cart_id: string | null;
  order_amount: unknown;
  duplicate: boolean;
}

/** An order as the control API lists it (emulator/README.md, GET /__emulator/orders). */
export interface EmulatorOrder {
  id: string;
  order_id: string;
  cart_id: string;
  status: string;
  amount: number;
  payment: string;
  trade_in_discount: number;
  [key: string]: unknown;
}

export interface TradeInRequest {
  session_hash: string;
  merchant_id?: string;
  status?: string;
  /** cents, default 15000 */
  value?: number;
  currency?: string;
  valid_for_seconds?: number;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR_URL}/__emulator${path}`, {
    method,
    // The control API takes application/json only (emulator/README.md, Control API).
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`emulator ${method} ${path} answered ${response.status}: ${text}`);
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const emulator = {
  /** Back to the seed: state, clock, journal, faults, webhook queue and settings. */
  reset: () => call<unknown>("POST", "/reset"),
  /**
   * Tells the go-live readiness report the shopper's raw session id and salt, so it can check
   * they never reach the service (emulator/README.md, "Go-live readiness"). Best effort: a
   * service without the hook (another SDK build's run) is not an error.
   */
  declareRawSession: (raw: { sessionId: string; salt: string }) =>
    call<unknown>("POST", "/readiness/declare", {
      merchant_id: "m_demo",
      session_id: raw.sessionId,
      salt: raw.salt,
    }).catch(() => undefined),
  advanceClock: (by: { seconds?: number; minutes?: number; hours?: number }) =>
    call<unknown>("POST", "/clock/advance", by),
  patchMerchant: (id: string, patch: MerchantPatch) =>
    call<unknown>("PATCH", `/merchants/${encodeURIComponent(id)}`, patch),
  /** An accepted trade-in for a session hash, without the wizard. */
  createTradeIn: (request: TradeInRequest) =>
    call<{ id: string; value: number; currency: string }>("POST", "/tradeins", request),
  addFault: (fault: {
    endpoint: string;
    method?: string;
    status?: number;
    latency_ms?: number;
    count?: number;
    /** Retry-After of an injected 429/503 (emulator default 60 / 30 s). */
    retry_after_seconds?: number;
  }) => call<{ id: string }>("POST", "/faults", fault),
  /** The fault rules not yet spent (a rule counts a request when the request comes in). */
  faults: async (): Promise<{ id: string; fired: number; remaining: number | null }[]> =>
    (
      await call<{ faults: { id: string; fired: number; remaining: number | null }[] }>(
        "GET",
        "/faults",
      )
    ).faults,
  /** Every journal entry (request and webhook), oldest first. */
  journal: async (): Promise<JournalEntry[]> =>
    (await call<{ entries: JournalEntry[] }>("GET", "/journal?limit=2000")).entries,
  webhooks: async (): Promise<WebhookNotification[]> =>
    (await call<{ notifications: WebhookNotification[] }>("GET", "/webhooks")).notifications,
  /** Holds new notifications that long on the emulator clock (a late webhook). */
  holdWebhooks: (seconds: number) =>
    call<unknown>("PUT", "/webhooks/settings", { first_attempt_delay_seconds: seconds }),
  redeliver: (id: string) =>
    call<{ attempt: WebhookAttempt }>("POST", `/webhooks/${encodeURIComponent(id)}/redeliver`),
  sendTwice: (id: string) =>
    call<{ attempts: WebhookAttempt[] }>("POST", `/webhooks/${encodeURIComponent(id)}/twice`),
  reorder: (earlier: string, later: string) =>
    call<{ attempts: WebhookAttempt[] }>("POST", "/webhooks/reorder", { earlier, later }),
  sendWithWrongSignature: (id: string) =>
    call<{ attempt: WebhookAttempt }>(
      "POST",
      `/webhooks/${encodeURIComponent(id)}/wrong-signature`,
    ),
  /** Every order the service holds, with its update history. */
  orders: async (): Promise<EmulatorOrder[]> => {
    const body = await call<EmulatorOrder[] | { orders: EmulatorOrder[] }>("GET", "/orders");
    return Array.isArray(body) ? body : body.orders;
  },
  /** Which SDK bundle the emulator serves (its source and SHA-256). */
  sdk: () => call<{ source: string; sha256: string; bytes: number }>("GET", "/sdk"),
  /** Every register-purchase the service received since the reset, duplicates included. */
  registerPurchases: async (): Promise<PurchaseReceipt[]> =>
    (await call<{ receipts: PurchaseReceipt[] }>("GET", "/register-purchases")).receipts,
  /** Moves the clock by days too (refresh tokens live 14 days). */
  advanceDays: (days: number) => call<unknown>("POST", "/clock/advance", { days }),
  /** Stops the emulator clock where it is: only advanceClock moves it until the next reset. */
  freezeClock: async () => {
    const { now } = await call<{ now: string }>("GET", "/clock");
    return call<unknown>("POST", "/clock/set", { now, freeze: true });
  },
  /** The next scheduled webhook attempts fail, one per fault (emulator/README.md, Webhooks). */
  failWebhookDeliveries: (faults: WebhookDeliveryFault[]) =>
    call<{ delivery_faults: WebhookDeliveryFault[] }>("POST", "/webhooks/delivery-faults", {
      faults,
    }),
  /** Fires whatever is due now on the emulator clock. */
  tick: () => call<unknown>("POST", "/webhooks/tick"),

  /** Waits until the notification of a cart exists (the payment completed), and returns it. */
  async webhookFor(cartId: string): Promise<WebhookNotification> {
    let found: WebhookNotification | undefined;
    await expect
      .poll(async () => {
        found = (await emulator.webhooks()).find((n) => n.cart_id === cartId);
        return found !== undefined;
      })
      .toBe(true);
    return found as WebhookNotification;
  },

  /** Waits until the notification of a cart was delivered (answered exactly 200). */
  async deliveredWebhookFor(cartId: string): Promise<WebhookNotification> {
    let found: WebhookNotification | undefined;
    await expect
      .poll(async () => {
        found = (await emulator.webhooks()).find((n) => n.cart_id === cartId);
        return found?.status;
      })
      .toBe("delivered");
    return found as WebhookNotification;
  },
};

/**
 * The shopper's session hash, read the way the SDK reads it: `shopper_data` from the page's own
 * context (so the shopper's sealed cookie goes along). 404 for an anonymous shopper. Before the
 * first page (a journey that starts signed in, ShopSteps.startSignedIn) through the context's
 * request client, which carries the same cookies.
 */
export async function sessionHashOf(page: Page): Promise<string> {
  const body = /^https?:/.test(page.url())
    ? await page.evaluate(async () => {
        const response = await fetch("/api/service/shopper_data", { credentials: "same-origin" });
        return { status: response.status, json: await response.json() };
      })
    : await page.request
        .get("/api/service/shopper_data")
        .then(async (response) => ({ status: response.status(), json: await response.json() }));
  expect(body.status, "shopper_data answers 200 for a logged-in shopper").toBe(200);
  const hash = (body.json as { session_hash_token?: unknown }).session_hash_token;
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  return hash as string;
}
