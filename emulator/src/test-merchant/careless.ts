// The careless merchant: the bare test merchant committing, on demand, each mistake the go-live
// readiness report looks for, so every rule is shown failing (emulator/test/readiness.test.ts and
// emulator/e2e/careless-merchant.e2e.ts). Server-side mistakes are real HTTP requests to the
// service API, as merchant m_test's backend would send them; page and callback mistakes change
// what the test merchant's page and callbacks answer; receiver mistakes change how its webhook
// receiver answers.
import type { EmulatorContext } from "../context";
import { readinessFor } from "../readiness/report";
import type { RuleId } from "../readiness/rules";
import { webhooksFor } from "../webhooks/module";
import { cartOf, sessionHashOf, TEST_MERCHANT_ID } from "./shop";

export type MistakeWhere = "backend" | "page" | "callbacks" | "receiver";

export interface Mistake {
  where: MistakeWhere;
  /** What the careless merchant does, in a plain sentence. */
  does: string;
}

/** Every rule the careless merchant can break (the go-live scenarios are outcomes, not mistakes). */
export const MISTAKES = {
  "token.basic-auth": {
    where: "backend",
    does: "sends client_id and client_secret in the token request's form body",
  },
  "token.reuse": { where: "backend", does: "logs in with the password four times in a row" },
  "token.refresh-used": {
    where: "backend",
    does: "logs in again with the password once its token expired (the clock moves 61 minutes)",
  },
  "token.refresh-on-401": {
    where: "backend",
    does: "answers a 401 by logging in with the password, without a refresh (the clock moves 61 minutes)",
  },
  "api.path-form": {
    where: "backend",
    does: "calls GET /core/merchants without the trailing slash",
  },
  "api.backoff": {
    where: "backend",
    does: "retries a 429 at once, ignoring Retry-After (one 429 is injected)",
  },
  "money.integer-cents": {
    where: "backend",
    does: "writes order_amount as 79860.00 in register-purchase",
  },
  "money.order-amount": {
    where: "backend",
    does: "sends order_amount as the cart total minus the trade-in",
  },
  "purchase.accepted-tradein": {
    where: "backend",
    does: "sends register-purchase for a session without a trade-in",
  },
  "session.hash-form": {
    where: "backend",
    does: "looks a session up by an uppercase SHA-1 instead of the HMAC-SHA256 hex",
  },
  "session.hash-per-shopper": {
    where: "backend",
    does: "registers purchases of two customers under one session hash",
  },
  "privacy.raw-session": {
    where: "backend",
    does: "declares its raw session id, then sends it as session_hash",
  },
  "callback.shopper-data": {
    where: "callbacks",
    does: "answers shopper_data with a numeric customer id and no email",
  },
  "callback.purchase-data": {
    where: "callbacks",
    does: "answers purchase_data 404 for an empty cart instead of { purchase: null }",
  },
  "markup.payment-option": {
    where: "page",
    does: "renders the Service Pay radio with the value service-pay, without data-module-name and without the icon",
  },
  "markup.info-extra-hidden": {
    where: "page",
    does: "shows the option's info and extra texts before the option is selected",
  },
  "webhook.deliveries": {
    where: "receiver",
    does: "answers genuine notifications 204 (one is sent)",
  },
  "webhook.unsigned": {
    where: "receiver",
    does: "accepts notifications without checking any signature",
  },
  "webhook.wrong-secret": {
    where: "receiver",
    does: "checks signatures with the client secret",
  },
  "webhook.reserialised": {
    where: "receiver",
    does: "checks the signature over JSON.stringify of the parsed body",
  },
  "webhook.valid": { where: "receiver", does: "answers valid notifications 204" },
  "webhook.duplicates": {
    where: "receiver",
    does: "answers 500 to a notification id it has seen before",
  },
  "webhook.out-of-order": {
    where: "receiver",
    does: "answers 409 to a status older than the order's",
  },
  "webhook.body-forms": {
    where: "receiver",
    does: "reads only the flat body form and answers 400 to the other",
  },
  "webhook.unknown-status": { where: "receiver", does: "answers 500 to a status it does not know" },
  "webhook.slow-network": {
    where: "receiver",
    does: "gives up with 400 when the body takes more than a second to arrive",
  },
} as const satisfies Partial<Record<RuleId, Mistake>>;

export type MistakeId = keyof typeof MISTAKES;

export function isMistake(id: string): id is MistakeId {
  return Object.hasOwn(MISTAKES, id);
}

const CLIENT = `Basic ${Buffer.from("test-client:test-client-secret").toString("base64")}`;
const LOGIN = "grant_type=password&username=test-admin&password=test-password";

/** The careless backend's calls, over HTTP to the emulator itself (so they are journaled). */
function backend(origin: string) {
  const call = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, init);
  const token = async (body = LOGIN, authorization: string | null = CLIENT): Promise<string> => {
    const res = await call("/oauth2/token/", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(authorization ? { authorization } : {}),
      },
      body,
    });
    const json = (await res.json()) as { access_token?: string };
    return json.access_token ?? "";
  };
  const api = (access: string, path: string, init: RequestInit = {}) =>
    call(path, {
      ...init,
      headers: { authorization: `Bearer ${access}`, ...(init.headers ?? {}) },
    });
  /** register-purchase with the body text exactly as given. */
  const registerPurchase = (access: string, text: string) =>
    api(access, "/register-purchase", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
  return { call, token, api, registerPurchase };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

/** Commits a backend mistake now. */
export async function commitBackendMistake(
  ctx: EmulatorContext,
  origin: string,
  id: MistakeId,
): Promise<void> {
  const b = backend(origin);
  const shop = `careless-${id}`;
  const hash = sessionHashOf(shop);
  const cart = cartOf(shop, 79_860);
  const acceptedTradeIn = () =>
    ctx.state.createTradeIn({
      merchant_id: TEST_MERCHANT_ID,
      session_hash: hash,
      value: 15_000,
      currency: "EUR",
      status: "accepted",
    });
  switch (id) {
    case "token.basic-auth":
      await b.token(`${LOGIN}&client_id=test-client&client_secret=test-client-secret`, null);
      return;
    case "token.reuse":
      for (let i = 0; i < 4; i++) await b.token();
      return;
    case "token.refresh-used":
      await b.token();
      ctx.clock.advance(61 * 60_000);
      await b.token();
      return;
    case "token.refresh-on-401": {
      const first = await b.token();
      ctx.clock.advance(61 * 60_000);
      await b.api(first, "/core/merchants/");
      const second = await b.token();
      await b.api(second, "/core/merchants/");
      return;
    }
    case "api.path-form":
      await b.api(await b.token(), "/core/merchants");
      return;
    case "api.backoff": {
      const access = await b.token();
      const fault = ctx.faults.add({ endpoint: "merchants", status: 429, count: 1 });
      await b.api(access, "/core/merchants/");
      await b.api(access, "/core/merchants/");
      ctx.faults.remove(fault.id);
      return;
    }
    case "money.integer-cents":
      acceptedTradeIn();
      await b.registerPurchase(
        await b.token(),
        `{"session_hash":"${hash}","cart":"${encode(cart)}","order_amount":79860.00}`,
      );
      return;
    case "money.order-amount": {
      const item = acceptedTradeIn();
      const body = {
        session_hash: hash,
        cart: encode(cart),
        order_amount: cart.total - item.value,
      };
      await b.registerPurchase(await b.token(), JSON.stringify(body));
      return;
    }
    case "purchase.accepted-tradein":
      ctx.state.bindSession(TEST_MERCHANT_ID, hash);
      await b.registerPurchase(
        await b.token(),
        JSON.stringify({ session_hash: hash, cart: encode(cart), order_amount: cart.total }),
      );
      return;
    case "session.hash-form": {
      const sha1 = hash.slice(0, 40).toUpperCase();
      await b.api(await b.token(), `/core/sessions/${sha1}/`);
      return;
    }
    case "session.hash-per-shopper": {
      const access = await b.token();
      for (const customer of ["cust-a", "cust-b"]) {
        await b.registerPurchase(
          access,
          JSON.stringify({
            session_hash: hash,
            cart: encode(cart),
            order_amount: cart.total,
            customer_id: customer,
          }),
        );
      }
      return;
    }
    case "privacy.raw-session": {
      const raw = `raw-session-id-of-${shop}`;
      readinessFor(ctx).declare(TEST_MERCHANT_ID, [raw]);
      await b.registerPurchase(
        await b.token(),
        JSON.stringify({ session_hash: raw, cart: encode(cart), order_amount: cart.total }),
      );
      return;
    }
    default:
      return;
  }
}

/** Sends one genuine notification to the test merchant (for the receiver's delivery mistakes). */
export function notifyTestMerchant(ctx: EmulatorContext): void {
  const order = ctx.state.createOrder({
    merchant_id: TEST_MERCHANT_ID,
    cart_id: `cart-careless-${ctx.clock.now()}`,
    status: "payment_completed",
    amount: 79_860,
    currency: "EUR",
    trade_in_discount: 15_000,
    customer_id: null,
    session_hash: null,
    payment: "ep1",
  });
  webhooksFor(ctx).notifyOrder(order);
}
