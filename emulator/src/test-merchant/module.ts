// The bare test merchant under /__emulator/test-merchant/: a page that loads the SDK like a
// storefront does, same-origin `shopper_data` / `purchase_data` callbacks whose customer and cart a
// test sets, and a webhook receiver that checks signatures like a merchant must. It lets the SDK
// and the dispatcher be tested end to end without the storefront.
import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { z } from "zod";
import type { ObservationSessionResponse } from "../../sdk/wire";
import type { EmulatorEnv, EmulatorModule } from "../context";
import type { Merchant } from "../domain";
import { fail, reply } from "../http/errors";
import { OBSERVATIONS_PATH } from "../readiness/passive";
import { cartSchema, customerSchema } from "../sdk-api/schemas";
import { SESSION_DEFAULTS } from "../state/seed";
import { webhooksFor } from "../webhooks/module";
import { SIGNATURE_HEADER, sign, signingSecret, wrongSecret } from "../webhooks/signature";
import {
  commitBackendMistake,
  isMistake,
  MISTAKES,
  type MistakeId,
  notifyTestMerchant,
} from "./careless";
import { testMerchantPage } from "./page";
import { defaultShop, type Shop, sessionHashOf, TEST_MERCHANT_ID, TEST_USER_ID } from "./shop";

const BASE = "/__emulator/test-merchant";

export type ReceivedWebhook = {
  received_at: string;
  signature_valid: boolean;
  answered: number;
  body: unknown;
};

const shopStateSchema = z.object({
  customer: customerSchema.nullable().optional(),
  cart: cartSchema.nullable().optional(),
  careless: z.array(z.string().max(100)).max(50).optional(),
  /** false: purchase_data leaves out billing and shipping, as a careless merchant might. */
  addresses: z.boolean().optional(),
  cacheableShopperData: z.boolean().optional(),
  negotiatesContent: z.boolean().optional(),
});

const merchantPatchSchema = z.object({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  products: z.enum(["valuations", "valuations+ep1"]).optional(),
  webhook_form: z.enum(["flat", "wrapped"]).optional(),
  minimums: z
    .object({ tradein: z.number().int().nonnegative(), ep1: z.number().int().nonnegative() })
    .partial()
    .optional(),
});

const carelessSchema = z.object({ mistake: z.string().min(1).max(100) });

const receiverSchema = z.object({
  /** Status the receiver answers with a valid signature (e.g. 500, 201 or 204 to force retries). */
  status: z.number().int().min(100).max(599).optional(),
  /** Real-time delay before answering (for the timeout). */
  delay_ms: z.number().int().nonnegative().max(120_000).optional(),
});

function testMerchant(origins: string[], webhookBase: string): Merchant {
  return {
    id: TEST_MERCHANT_ID,
    name: "Bare test merchant",
    products: "valuations+ep1",
    currency: "EUR",
    minimums: { tradein: 5000, ep1: 20000 },
    allowed_origins: origins,
    webhook_base: webhookBase,
    webhook_form: "flat",
    ...SESSION_DEFAULTS,
  };
}

export const testMerchantModule: EmulatorModule = {
  name: "test-merchant",
  mount(app, ctx) {
    const shops = new Map<string, Shop>();
    const received: ReceivedWebhook[] = [];
    const receiver = { status: 200, delay_ms: 0 };
    // The careless merchant's mistakes in force, and what its careless receiver remembers.
    const careless = new Set<MistakeId>();
    const seenNotifications = new Set<string>();
    const orderStatuses = new Map<string, number>();
    ctx.onReset(() => {
      shops.clear();
      received.length = 0;
      Object.assign(receiver, { status: 200, delay_ms: 0 });
      careless.clear();
      seenNotifications.clear();
      orderStatuses.clear();
    });

    const shopOf = (key: string): Shop => {
      let shop = shops.get(key);
      if (!shop) {
        shop = defaultShop(key);
        shops.set(key, shop);
      }
      return shop;
    };

    /**
     * The test merchant lives outside the seed (the storefront relies on the seed), so it is
     * added on first use and after every reset. Its allowed origin is the page's own origin.
     */
    const ensureMerchant = (c: Context<EmulatorEnv>): Merchant => {
      const origin = new URL(c.req.url).origin;
      const existing = ctx.state.getMerchant(TEST_MERCHANT_ID);
      const webhookBase = `${origin}${BASE}/webhooks`;
      if (!existing) {
        // The store has no "add merchant" operation; its maps are the documented state.
        ctx.state.merchants.set(TEST_MERCHANT_ID, testMerchant([origin], webhookBase));
        ctx.state.users.set(TEST_USER_ID, {
          id: TEST_USER_ID,
          merchant_id: TEST_MERCHANT_ID,
          username: "test-admin",
          password: "test-password",
          scopes: ["core", "payments", "valuations", "updates"],
        });
        ctx.state.clients.set("test-client", {
          client_id: "test-client",
          client_secret: "test-client-secret",
          merchant_id: TEST_MERCHANT_ID,
        });
        return ctx.state.getMerchant(TEST_MERCHANT_ID) as Merchant;
      }
      if (!existing.allowed_origins.includes(origin)) {
        return (
          ctx.state.updateMerchant(TEST_MERCHANT_ID, {
            allowed_origins: [...existing.allowed_origins, origin],
          }) ?? existing
        );
      }
      return existing;
    };

    /**
     * `?merchant=ID`: the page as a merchant cloned from m_test (POST /__emulator/merchants/m_test/
     * clone), so a test can own that merchant's currency, products and clock without touching the
     * m_test every other test shares. Anything but a plain id falls back to m_test.
     */
    const merchantOf = (query: string | undefined): string =>
      query !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(query) ? query : TEST_MERCHANT_ID;

    const page = (checkout: boolean) => (c: Context<EmulatorEnv>) => {
      ensureMerchant(c);
      const key = c.req.param("shop") ?? "default";
      const url = new URL(c.req.url);
      // The SDK comes from another origin than the page (localhost vs 127.0.0.1), so CORS is
      // exercised as with a real storefront; `?assets=` points the page at another SDK build.
      const otherHost = url.hostname === "localhost" ? "127.0.0.1" : "localhost";
      const assetsUrl =
        c.req.query("assets") ?? `${url.protocol}//${otherHost}:${url.port}/assets/v1/main.js`;
      const fromQuery = (c.req.query("careless") ?? "").split(",").filter(isMistake);
      return c.html(
        testMerchantPage({
          careless: [...new Set([...careless, ...fromQuery])],
          carelessPanel: c.req.query("careless") !== undefined,
          title: checkout ? "Test merchant checkout" : "Test merchant order confirmation",
          assetsUrl,
          merchantId: merchantOf(c.req.query("merchant")),
          callbackBase: `${url.origin}${BASE}/${key}`,
          confirmUrl: `${url.origin}${BASE}/${key}/confirmation`,
          products: c.req.query("products") ?? "valuations+ep1",
          lang: c.req.query("lang") ?? "en",
          checkout,
          moduleName: c.req.query("module") ?? "servicepay",
        }),
      );
    };

    app.get(`${BASE}/:shop/`, page(true));
    app.get(`${BASE}/:shop/confirmation`, page(false));

    // Merchant callbacks (contract: Merchant endpoints), same-origin with the page. A shop that
    // negotiates content answers its HTML page to a request that does not ask for JSON.
    const htmlUnlessJsonAsked = (c: Context, shop: Shop) =>
      shop.negotiatesContent && !(c.req.header("accept") ?? "").includes("application/json")
        ? c.html("<!doctype html><title>Test shop</title><p>Test shop</p>")
        : undefined;
    app.get(`${BASE}/:shop/shopper_data`, (c) => {
      const key = c.req.param("shop");
      const shop = shopOf(key);
      const html = htmlUnlessJsonAsked(c, shop);
      if (html) return html;
      if (!shop.customer) return fail(c, 404, "not_found", "Customer not found.");
      if (
        careless.has("callback.shopper-data") ||
        shop.careless?.includes("callback.shopper-data")
      ) {
        return reply(c, {
          customer: { id: 42, given_name: "Test" },
          session_hash_token: sessionHashOf(key),
        });
      }
      return reply(
        c,
        { customer: shop.customer, session_hash_token: sessionHashOf(key) },
        200,
        shop.cacheableShopperData ? { "cache-control": "private, max-age=600" } : undefined,
      );
    });
    app.get(`${BASE}/:shop/purchase_data`, (c) => {
      const shop = shopOf(c.req.param("shop"));
      const html = htmlUnlessJsonAsked(c, shop);
      if (html) return html;
      const carelessCart =
        careless.has("callback.purchase-data") || shop.careless?.includes("callback.purchase-data");
      if (!shop.cart && carelessCart) {
        return fail(c, 404, "not_found", "The cart is empty.");
      }
      if (!shop.cart) return reply(c, { purchase: null });
      const address = {
        given_name: "Test",
        family_name: "Shopper",
        phone: "+34600000000",
        address: "Calle Mayor 1",
        city: "Madrid",
        state: "Madrid",
        country_code: "ES",
        postal_code: "28013",
      };
      return reply(c, {
        purchase: {
          cart: shop.cart,
          ...(shop.addresses === false
            ? {}
            : {
                billing: address,
                shipping: { address, method: { id: "standard", name: "Standard" } },
              }),
          customer: shop.customer
            ? { id: shop.customer.id, email: shop.customer.email ?? "" }
            : undefined,
        },
      });
    });

    // Control of the test merchant.
    app.get(`${BASE}/:shop/state`, (c) => {
      const key = c.req.param("shop");
      return reply(c, { ...shopOf(key), session_hash: sessionHashOf(key) });
    });
    app.put(`${BASE}/:shop/state`, async (c) => {
      const parsed = shopStateSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) {
        return fail(c, 400, "bad_request", parsed.error.issues[0]?.message ?? "invalid state");
      }
      const key = c.req.param("shop");
      const shop = shopOf(key);
      if (parsed.data.customer !== undefined) shop.customer = parsed.data.customer;
      if (parsed.data.cart !== undefined) shop.cart = parsed.data.cart;
      if (parsed.data.careless !== undefined) shop.careless = parsed.data.careless;
      if (parsed.data.addresses !== undefined) shop.addresses = parsed.data.addresses;
      if (parsed.data.cacheableShopperData !== undefined)
        shop.cacheableShopperData = parsed.data.cacheableShopperData;
      if (parsed.data.negotiatesContent !== undefined)
        shop.negotiatesContent = parsed.data.negotiatesContent;
      return reply(c, { ...shop, session_hash: sessionHashOf(key) });
    });
    app.put(`${BASE}/merchant`, async (c) => {
      ensureMerchant(c);
      const parsed = merchantPatchSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) {
        return fail(c, 400, "bad_request", parsed.error.issues[0]?.message ?? "invalid patch");
      }
      const { minimums, ...rest } = parsed.data;
      const current = ctx.state.getMerchant(TEST_MERCHANT_ID) as Merchant;
      return reply(
        c,
        ctx.state.updateMerchant(TEST_MERCHANT_ID, {
          ...rest,
          ...(minimums ? { minimums: { ...current.minimums, ...minimums } } : {}),
        }),
      );
    });

    // The fake webhook receiver: checks the signature over the raw bytes, in constant time,
    // unless the careless merchant's mistakes say otherwise.
    app.post(`${BASE}/webhooks/order`, async (c) => {
      const started = Date.now();
      const raw = await c.req.text();
      // The readiness check's slow body comes in four pieces slowSendGapMs apart: three gaps.
      const slowBody = Date.now() - started > 2 * ctx.config.slowSendGapMs;
      const secret = careless.has("webhook.wrong-secret")
        ? wrongSecret(ctx.state, TEST_MERCHANT_ID)
        : signingSecret(ctx.state, TEST_MERCHANT_ID);
      let signed = raw;
      if (careless.has("webhook.reserialised")) {
        try {
          signed = JSON.stringify(JSON.parse(raw));
        } catch {}
      }
      const given = Buffer.from(c.req.header(SIGNATURE_HEADER) ?? "", "utf8");
      const expected = Buffer.from(sign(signed, secret), "utf8");
      const valid =
        careless.has("webhook.unsigned") ||
        (given.length === expected.length && timingSafeEqual(given, expected));
      if (receiver.delay_ms > 0) await new Promise((r) => setTimeout(r, receiver.delay_ms));
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {}
      const answered = valid ? (carelessAnswer(body, slowBody) ?? receiver.status) : 403;
      received.push({ received_at: ctx.clock.iso(), signature_valid: valid, answered, body });
      return c.json({ received: valid }, answered as 200);
    });

    const STATUS_RANK: Record<string, number> = { pending: 0, payment_completed: 1, completed: 2 };
    /** The status a careless receiver answers a correctly signed notification with, if wrong. */
    const carelessAnswer = (body: unknown, slowBody: boolean): number | undefined => {
      const n = (body ?? {}) as Record<string, unknown>;
      const data = (n.data ?? {}) as Record<string, unknown>;
      const status = String(n.status ?? data.status ?? "");
      const id = String(n.id ?? "");
      const orderId = String(n.order_id ?? "");
      const seen = seenNotifications.has(id);
      seenNotifications.add(id);
      if (careless.has("webhook.slow-network") && slowBody) return 400;
      if (careless.has("webhook.duplicates") && seen) return 500;
      if (careless.has("webhook.body-forms") && n.cart_id === undefined) return 400;
      const rank = STATUS_RANK[status];
      if (careless.has("webhook.unknown-status") && rank === undefined) return 500;
      if (careless.has("webhook.out-of-order") && rank !== undefined) {
        const before = orderStatuses.get(orderId);
        if (before !== undefined && rank < before) return 409;
        orderStatuses.set(orderId, rank);
      }
      if (careless.has("webhook.valid") || careless.has("webhook.deliveries")) return 204;
      return undefined;
    };

    app.get(`${BASE}/webhooks`, (c) => reply(c, { receiver, received }));
    app.put(`${BASE}/webhooks/settings`, async (c) => {
      const parsed = receiverSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return fail(c, 400, "bad_request", "Send { status?, delay_ms? }.");
      Object.assign(receiver, parsed.data);
      return reply(c, receiver);
    });

    // The careless merchant: commit one mistake now (JSON POST, like the rest of the control API).
    app.get(`${BASE}/careless`, (c) =>
      reply(c, {
        in_force: [...careless],
        mistakes: Object.entries(MISTAKES).map(([rule, m]) => ({ rule, ...m })),
      }),
    );
    app.post(`${BASE}/careless`, async (c) => {
      const parsed = carelessSchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success || !isMistake(parsed.data.mistake)) {
        return fail(c, 400, "bad_request", "Send { mistake } naming one rule of GET /careless.");
      }
      ensureMerchant(c);
      const id = parsed.data.mistake;
      const mistake = MISTAKES[id];
      const origin = new URL(c.req.url).origin;
      careless.add(id);
      if (mistake.where === "backend") await commitBackendMistake(ctx, origin, id);
      if (mistake.where === "callbacks") await playTheSdk(origin, id);
      if (id === "webhook.deliveries") {
        notifyTestMerchant(ctx);
        await webhooksFor(ctx).idle();
      }
      return reply(c, {
        mistake: id,
        ...mistake,
        page: `${origin}${BASE}/careless/?careless=${encodeURIComponent(id)}`,
      });
    });
    app.post(`${BASE}/careless/clear`, (c) => {
      careless.clear();
      return reply(c, { in_force: [] });
    });

    /**
     * Callback mistakes outside a browser: fetch the callback and report it exactly as the SDK
     * does (emulator/sdk/observe.ts); in a browser the SDK itself reports them.
     */
    const playTheSdk = async (origin: string, id: MistakeId) => {
      const shop = `careless-${id}`;
      const callback = id === "callback.purchase-data" ? "purchase_data" : "shopper_data";
      if (callback === "purchase_data") shopOf(shop).cart = null;
      const response = await fetch(`${origin}${BASE}/${shop}/${callback}`);
      // As the SDK does on the merchant's page: its origin, and its observation session's token.
      const session = await fetch(`${origin}${OBSERVATIONS_PATH}/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ merchant_id: TEST_MERCHANT_ID }),
      });
      const { observation_token } = (await session.json()) as ObservationSessionResponse;
      await fetch(`${origin}${OBSERVATIONS_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({
          kind: "callback",
          merchant_id: TEST_MERCHANT_ID,
          token: observation_token,
          seq: 1,
          callback,
          status: response.status,
          content_type: response.headers.get("content-type") ?? "",
          body_text: await response.text(),
        }),
      });
    };
  },
};
