// The SDK-to-service routes (the service's private protocol with its own browser SDK; shapes in
// emulator/sdk/wire.ts) and the SDK bundle at /assets/v1/main.js. CORS for the merchants'
// allowed origins; a request from an origin its merchant did not register answers 403.
import type { Context } from "hono";
import type { z } from "zod";
import type {
  CatalogResponse,
  InitResponse,
  PaymentOptionResponse,
  SessionUpdate,
} from "../../sdk/wire";
import { describeBundle, SDK_BUDGET_GZIP_BYTES, type SdkBundle, sdkFor } from "../assets/build-sdk";
import { PAYMENT_ICON_PATH, PAYMENT_ICON_SVG } from "../assets/payment-icon";
import type { EmulatorContext, EmulatorEnv, EmulatorModule } from "../context";
import type { Cart, Merchant, Session, TradeInItem } from "../domain";
import { mediaType, readJson } from "../http/body";
import { fail, reply } from "../http/errors";
import { questionsFor, quote } from "../state/catalog";
import { currentVersion } from "../state/store";
import { webhooksFor } from "../webhooks/module";
import { originAllowed } from "./cors";
import { findMagicModel, MAGIC_CATEGORY, MAGIC_MODELS } from "./magic";
import { paymentOptionDetails } from "./payment-option";
import {
  initSchema,
  paymentOptionSchema,
  sessionRefSchema,
  startPaymentSchema,
  valuationSchema,
} from "./schemas";
import { cartFingerprint, tradeInView } from "./views";

type C = Context<EmulatorEnv>;

/** The last cart each session saw: `${merchant}|${hash}` → fingerprint. */
const seenCarts = new WeakMap<EmulatorContext, Map<string, string>>();
const bundles = new WeakMap<EmulatorContext, Promise<SdkBundle>>();

/** The bundle served at /assets/v1/main.js: the candidate of `config.sdk`, or the built-in SDK. */
export function servedSdk(ctx: EmulatorContext): Promise<SdkBundle> {
  let bundle = bundles.get(ctx);
  if (!bundle) {
    bundle = sdkFor(ctx.config.sdk);
    bundles.set(ctx, bundle);
  }
  return bundle;
}

/**
 * The same reading as the service API's: zod, and no number written as a decimal. Only a body
 * that says it is JSON, as the observations take it: a page on any origin may POST text/plain
 * with no CORS preflight, never application/json.
 */
async function body<S extends z.ZodType>(c: C, schema: S): Promise<z.infer<S> | Response> {
  if (mediaType(c) !== "application/json") {
    return fail(
      c,
      415,
      "unsupported_media_type",
      "The SDK's calls are JSON: Content-Type: application/json.",
    );
  }
  const parsed = await readJson(c, schema);
  return parsed.ok ? parsed.value : parsed.response;
}

export const sdkApiModule: EmulatorModule = {
  name: "sdk-api",
  mount(app, ctx) {
    const carts = new Map<string, string>();
    seenCarts.set(ctx, carts);
    ctx.onReset(() => carts.clear());
    ctx.onMerchantReset((merchantId) => {
      for (const key of [...carts.keys()]) if (key.startsWith(`${merchantId}|`)) carts.delete(key);
    });

    const merchantFor = (c: C, merchantId: string): Merchant | Response => {
      const merchant = ctx.state.getMerchant(merchantId);
      if (!merchant) return fail(c, 404, "not_found", `Unknown merchant ${merchantId}.`);
      const origin = c.req.header("origin");
      if (origin !== undefined && !originAllowed(ctx, origin, merchant.id)) {
        return fail(c, 403, "forbidden", `Origin ${origin} is not allowed for this merchant.`);
      }
      return merchant;
    };

    const sessionFor = (c: C, merchant: Merchant, hash: string): Session | Response =>
      ctx.state.getSession(merchant.id, hash) ??
      fail(c, 404, "not_found", "Unknown or expired session hash: the SDK binds it at start-up.");

    /** The body, its merchant (origin checked) and the bound session, or the error answer. */
    const sessionRequest = async <
      S extends z.ZodType<{ merchant_id: string; session_hash: string }>,
    >(
      c: C,
      schema: S,
    ) => {
      const input = await body(c, schema);
      if (input instanceof Response) return input;
      const merchant = merchantFor(c, input.merchant_id);
      if (merchant instanceof Response) return merchant;
      const session = sessionFor(c, merchant, input.session_hash);
      if (session instanceof Response) return session;
      return { input, merchant, session };
    };

    const acceptedTradeIn = (merchant: Merchant, hash: string): TradeInItem | null => {
      const item = ctx.state.activeTradeIn(merchant.id, hash);
      return item?.status === "accepted" ? item : null;
    };

    /** Contract, Session version: a changed cart moves the session to its next version. */
    const observeCart = (
      merchant: Merchant,
      session: Session,
      cart: Cart | null,
    ): SessionUpdate => {
      const key = `${merchant.id}|${session.hash}`;
      const before = carts.get(key);
      const now = cart ? cartFingerprint(cart) : "empty";
      carts.set(key, now);
      if (before !== undefined && before !== now) {
        const moved = ctx.state.supersedeSession(merchant.id, session.hash);
        if (moved) {
          return {
            session_id: ctx.state.sessionIdOf(session, moved.version.version),
            updated: true,
            note: moved.version.note,
          };
        }
      }
      return {
        session_id: ctx.state.sessionIdOf(session, currentVersion(session).version),
        updated: false,
      };
    };

    // CORS for /assets/* and /sdk/v1/* is mounted by app.ts, around the faults and maintenance.

    app.get("/assets/v1/main.js", async (c) => {
      const bundle = await servedSdk(ctx);
      return c.body(bundle.code, 200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-cache",
      });
    });

    // Which SDK this emulator serves, so a test runner can check it is testing its candidate.
    app.get("/__emulator/sdk", async (c) => {
      const { code: _code, gzipBytes, ...bundle } = await servedSdk(ctx);
      return reply(c, { ...bundle, gzip_bytes: gzipBytes });
    });

    // An image any merchant's page may embed (no CORS needed for <img>, but a page with
    // Cross-Origin-Embedder-Policy needs the resource policy).
    app.get(PAYMENT_ICON_PATH, (c) =>
      c.body(PAYMENT_ICON_SVG, 200, {
        "Content-Type": "image/svg+xml",
        "Cache-Control": "public, max-age=3600",
        "Cross-Origin-Resource-Policy": "cross-origin",
      }),
    );

    app.post("/sdk/v1/init", async (c) => {
      const input = await body(c, initSchema);
      if (input instanceof Response) return input;
      const merchant = merchantFor(c, input.merchant_id);
      if (merchant instanceof Response) return merchant;
      const answer: InitResponse = {
        // The merchant's own clock, the one that dates its offers (valid_until): the SDK times
        // an offer's end by the difference between this and the browser's clock.
        now: ctx.clock.iso(ctx.clock.now(merchant.id)),
        merchant_currency: merchant.currency,
        session_id: null,
        tradein: null,
        earlier_valuation: false,
      };
      if (input.session_hash) {
        const { session, version } = ctx.state.bindSession(
          merchant.id,
          input.session_hash,
          input.customer ?? undefined,
        );
        answer.session_id = ctx.state.sessionIdOf(session, version.version);
        const tradein = acceptedTradeIn(merchant, session.hash);
        answer.tradein = tradein ? tradeInView(tradein) : null;
        answer.earlier_valuation = ctx.state.hasValuation(
          merchant.id,
          session.hash,
          input.customer?.id,
        );
      }
      return reply(c, answer);
    });

    app.get("/sdk/v1/catalog", (c) => {
      const merchant = merchantFor(c, c.req.query("merchant_id") ?? "");
      if (merchant instanceof Response) return merchant;
      const catalog = ctx.state.seed.catalog;
      const questions = (category: string) =>
        questionsFor(catalog, category).map((q) => ({
          id: q.id,
          text: q.text,
          options: q.answers.map((a) => ({ id: a.id, label: a.label })),
        }));
      const answer: CatalogResponse = {
        categories: [
          ...catalog.categories.map((category) => ({
            id: category.id,
            name: category.name,
            models: catalog.models
              .filter((m) => m.category === category.id && m.base_prices[merchant.currency])
              .map((m) => ({ id: m.id, name: m.name, questions: questions(category.id) })),
          })),
          {
            ...MAGIC_CATEGORY,
            models: MAGIC_MODELS.map((m) => ({
              id: m.id,
              name: m.name,
              test: m.test,
              questions: questions("phones"),
            })),
          },
        ],
      };
      return reply(c, answer);
    });

    app.post("/sdk/v1/valuations", async (c) => {
      const request = await sessionRequest(c, valuationSchema);
      if (request instanceof Response) return request;
      const { input, merchant, session } = request;
      const magic = findMagicModel(input.model_id);
      if (magic) {
        const item = ctx.state.createTradeIn({
          merchant_id: merchant.id,
          session_hash: session.hash,
          value: magic.value,
          currency: magic.currency(merchant.currency),
          device: {
            category: MAGIC_CATEGORY.id,
            model_id: magic.id,
            brand: "Test",
            name: magic.name,
          },
          condition: { answers: input.answers, factor: 1 },
          ...(magic.validFor ? { valid_until: ctx.clock.now(merchant.id) + magic.validFor } : {}),
        });
        return reply(c, tradeInView(item), 201);
      }
      const offer = quote(ctx.state.seed.catalog, input.model_id, input.answers, merchant.currency);
      if (!offer.ok) return fail(c, 400, "bad_request", offer.reason);
      const item = ctx.state.createTradeIn({
        merchant_id: merchant.id,
        session_hash: session.hash,
        value: offer.value,
        currency: offer.currency,
        device: offer.device,
        condition: offer.condition,
      });
      return reply(c, tradeInView(item), 201);
    });

    app.post("/sdk/v1/valuations/:id/accept", async (c) => {
      const input = await body(c, sessionRefSchema);
      if (input instanceof Response) return input;
      const merchant = merchantFor(c, input.merchant_id);
      if (merchant instanceof Response) return merchant;
      const id = c.req.param("id");
      const lookup = ctx.state.lookupTradeIn(merchant.id, id);
      if (lookup.kind === "not_found" || lookup.item.session_hash !== input.session_hash) {
        return fail(c, 404, "not_found", `Unknown trade-in item ${id}.`);
      }
      if (lookup.kind === "gone") return fail(c, 410, "gone", "The valuation expired.");
      const accepted = ctx.state.acceptTradeIn(id);
      if (!accepted) {
        return fail(c, 409, "conflict", `Trade-in item ${id} is ${lookup.item.status}.`);
      }
      return reply(c, tradeInView(accepted));
    });

    app.post("/sdk/v1/payment-option", async (c) => {
      const input = await body(c, paymentOptionSchema);
      if (input instanceof Response) return input;
      const merchant = merchantFor(c, input.merchant_id);
      if (merchant instanceof Response) return merchant;
      const cart = input.purchase?.cart ?? null;
      const session = input.session_hash
        ? ctx.state.getSession(merchant.id, input.session_hash)
        : undefined;
      const answer: PaymentOptionResponse = {
        session: session ? observeCart(merchant, session, cart) : null,
        details: paymentOptionDetails({
          merchant,
          products: input.products,
          tradein: session ? acceptedTradeIn(merchant, session.hash) : null,
          cart,
          locale: input.locale,
        }),
      };
      return reply(c, answer);
    });

    app.post("/sdk/v1/payments", async (c) => {
      const request = await sessionRequest(c, startPaymentSchema);
      if (request instanceof Response) return request;
      const { input, merchant, session } = request;
      const cart = input.purchase?.cart;
      if (!cart) return fail(c, 400, "bad_request", "purchase: the cart is empty.");
      const tradein = acceptedTradeIn(merchant, session.hash);
      const details = paymentOptionDetails({
        merchant,
        products: merchant.products,
        tradein,
        cart,
        locale: "en",
      });
      if (details.mode !== "tradein_valid" || !tradein) {
        return fail(c, 409, "conflict", `Service Pay is not possible: ${details.template_name}.`);
      }
      // A second click (or a retried request) for the same cart reuses its pending order.
      const found = ctx.state.findOrderByCart(merchant.id, cart.id);
      const mine =
        found?.payment === "ep1" && found.session_hash === session.hash ? found : undefined;
      if (mine && mine.status !== "pending") {
        return fail(c, 409, "conflict", `Cart ${cart.id} is already paid.`);
      }
      const order =
        mine ??
        ctx.state.createOrder({
          merchant_id: merchant.id,
          cart_id: cart.id,
          status: "pending",
          amount: cart.total,
          currency: cart.currency,
          trade_in_discount: tradein.value,
          customer_id: input.purchase?.customer?.id ?? session.customer?.id ?? null,
          session_hash: session.hash,
          tradein_item_id: tradein.id,
          payment: "ep1",
          cart,
        });
      return reply(
        c,
        {
          order_id: order.order_id,
          cart_id: order.cart_id,
          amount: order.amount,
          currency: order.currency,
          trade_in_discount: order.trade_in_discount,
          status: order.status,
        },
        201,
      );
    });

    app.post("/sdk/v1/payments/:id/complete", async (c) => {
      const input = await body(c, sessionRefSchema);
      if (input instanceof Response) return input;
      const merchant = merchantFor(c, input.merchant_id);
      if (merchant instanceof Response) return merchant;
      const order = ctx.state.findOrder(merchant.id, c.req.param("id"));
      if (!order || order.session_hash !== input.session_hash || order.payment !== "ep1") {
        return fail(c, 404, "not_found", `Unknown order ${c.req.param("id")}.`);
      }
      const done = { order_id: order.order_id, cart_id: order.cart_id, status: order.status };
      if (order.status === "payment_completed") return reply(c, done);
      if (order.status !== "pending" || !order.tradein_item_id) {
        return fail(c, 409, "conflict", `Order ${order.order_id} is ${order.status}.`);
      }
      if (!ctx.state.markTradeInUsed(order.tradein_item_id, order.id)) {
        return fail(c, 409, "conflict", "The trade-in is no longer available for this order.");
      }
      ctx.state.updateOrderStatus(merchant.id, order.id, "payment_completed");
      webhooksFor(ctx).notifyOrder(order);
      return reply(c, { ...done, status: order.status });
    });
  },
  start(ctx) {
    servedSdk(ctx).then(
      (bundle) => {
        const over = bundle.gzipBytes > SDK_BUDGET_GZIP_BYTES ? " — OVER BUDGET" : "";
        console.log(`[emulator] ${describeBundle(bundle)}${over}`);
      },
      (error: unknown) => console.error("[emulator] SDK build failed:", error),
    );
  },
};
