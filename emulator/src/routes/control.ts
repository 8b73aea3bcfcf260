import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { EmulatorContext, EmulatorEnv, EmulatorModule } from "../context";
import { type Merchant, ORDER_STATUSES } from "../domain";
import { readJson } from "../http/body";
import { cents } from "../http/cart";
import { clockAmountFields, clockAmountMs } from "../http/clock-amount";
import { fail, reply } from "../http/errors";
import { CONTROL_PREFIX } from "../http/middleware";
import { MONEY_KEYS } from "../http/notation";
import { merchantView, orderView, tradeInView } from "../http/views";
import { presentEntry } from "../journal";
import { quote } from "../state/catalog";
import { loadState, MAX_SNAPSHOT_BYTES, parseSavedState, saveState } from "../state/saved";
import { currentVersion } from "../state/store";
import { mountMerchantControl } from "./merchants";

// The control API under /__emulator/ (WireMock's /__admin in spirit): never journaled,
// never rate limited, never faulted, and it keeps working in maintenance mode.

const iso = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 time");
const currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code");
const DEFAULT_MERCHANT = "m_demo";

const advanceBody = z
  .object(clockAmountFields)
  .refine(
    (b) => Object.values(b).some((v) => v !== undefined),
    "give ms, seconds, minutes, hours or days",
  );

const tradeInBody = z.object({
  session_hash: z.string().min(1),
  merchant_id: z.string().default(DEFAULT_MERCHANT),
  value: cents.optional(),
  currency: currency.optional(),
  status: z.enum(["offered", "accepted", "used", "cancelled"]).default("accepted"),
  valid_until: iso.optional(),
  valid_for_seconds: z.number().optional(),
  model_id: z.string().optional(),
  answers: z.record(z.string(), z.string()).optional(),
});

const sessionBody = z.object({
  session_hash: z.string().min(1),
  merchant_id: z.string().default(DEFAULT_MERCHANT),
  customer: z
    .object({
      id: z.string(),
      email: z.string().optional(),
      given_name: z.string().optional(),
      family_name: z.string().optional(),
    })
    .optional(),
});

const supersedeBody = z.object({
  merchant_id: z.string().default(DEFAULT_MERCHANT),
  note: z.string().min(1).optional(),
  /** How many versions to move on at once (a long-lived session past |999 in one call). */
  versions: z.number().int().min(1).max(100_000).default(1),
});

const merchantPatch = z
  .object({
    name: z.string().min(1),
    products: z.enum(["valuations", "valuations+ep1"]),
    currency,
    minimums: z.object({ tradein: cents, ep1: cents }).partial(),
    allowed_origins: z.array(z.string()),
    webhook_base: z.string().url(),
    webhook_form: z.enum(["flat", "wrapped"]),
    session_versioning: z.enum(["as_is", "regenerate"]),
    session_id_form: z.enum(["hash_version", "uuid"]),
    tradein_item_form: z.enum(["object", "id"]),
  })
  .partial()
  .strict();

const configPatch = z
  .object({
    rate_limit_per_minute: z.number().int().min(1),
    maintenance: z.boolean(),
    maintenance_retry_after: z.number().int().min(0),
  })
  .partial()
  .strict();

const faultBody = z.object({
  endpoint: z.string().min(1),
  method: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  probability: z.number().min(0).max(1).optional(),
  count: z.number().int().min(1).nullable().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
  retry_after_seconds: z.number().int().min(0).max(86_400).optional(),
  body_stall_ms: z.number().int().min(1).max(120_000).optional(),
  /** Only requests authenticated as or addressed to this merchant. */
  merchant: z.string().min(1).max(64).optional(),
});

const orderBody = z.object({
  merchant_id: z.string().default(DEFAULT_MERCHANT),
  order_id: z.string().min(1).optional(),
  cart_id: z.string().min(1),
  status: z.enum(ORDER_STATUSES).default("pending"),
  amount: cents,
  currency: currency.default("EUR"),
  trade_in_discount: cents.default(0),
  customer_id: z.string().nullable().optional(),
  session_hash: z.string().nullable().optional(),
  payment: z.enum(["ep1", "other"]).default("ep1"),
});

/** Control bodies hold fractions where they mean it (a fault's probability); money never. */
const readControlJson = <S extends z.ZodType>(c: Context<EmulatorEnv>, schema: S) =>
  readJson(c, schema, { decimalKeys: MONEY_KEYS });

function clockView(ctx: EmulatorContext) {
  const now = ctx.clock.now();
  return {
    now: ctx.clock.iso(now),
    now_ms: now,
    offset_ms: ctx.clock.offset,
    frozen: ctx.clock.frozen,
  };
}

function configView(ctx: EmulatorContext) {
  return {
    rate_limit_per_minute: ctx.rateLimiter.limit,
    maintenance: ctx.config.maintenance,
    maintenance_retry_after: ctx.config.maintenanceRetryAfter,
  };
}

export function controlRoutes(ctx: EmulatorContext): Hono<EmulatorEnv> {
  const r = new Hono<EmulatorEnv>();
  const started = Date.now();

  r.get("/health", (c) =>
    reply(c, {
      status: "ok",
      now: ctx.clock.iso(),
      uptime_s: Math.round((Date.now() - started) / 1000),
    }),
  );

  r.post("/reset", (c) => {
    ctx.reset();
    return reply(c, { status: "reset" });
  });

  // ---- clock ----
  r.get("/clock", (c) => reply(c, clockView(ctx)));
  r.post("/clock/advance", async (c) => {
    const parsed = await readControlJson(c, advanceBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    ctx.clock.advance(clockAmountMs(b));
    return reply(c, clockView(ctx));
  });
  r.post("/clock/set", async (c) => {
    const parsed = await readControlJson(c, z.object({ now: iso, freeze: z.boolean().optional() }));
    if (!parsed.ok) return parsed.response;
    ctx.clock.set(Date.parse(parsed.value.now), parsed.value.freeze);
    return reply(c, clockView(ctx));
  });
  r.post("/clock/reset", (c) => {
    ctx.clock.reset();
    return reply(c, clockView(ctx));
  });

  // ---- config: rate limit, maintenance ----
  r.get("/config", (c) => reply(c, configView(ctx)));
  r.patch("/config", async (c) => {
    const parsed = await readControlJson(c, configPatch);
    if (!parsed.ok) return parsed.response;
    const p = parsed.value;
    if (p.rate_limit_per_minute !== undefined) {
      ctx.rateLimiter.limit = p.rate_limit_per_minute;
      ctx.config.rateLimitPerMinute = p.rate_limit_per_minute;
    }
    if (p.maintenance !== undefined) ctx.config.maintenance = p.maintenance;
    if (p.maintenance_retry_after !== undefined) {
      ctx.config.maintenanceRetryAfter = p.maintenance_retry_after;
    }
    return reply(c, configView(ctx));
  });

  // ---- merchants ----
  r.get("/merchants", (c) =>
    reply(c, { merchants: [...ctx.state.merchants.values()].map(merchantView) }),
  );
  r.patch("/merchants/:id", async (c) => {
    const parsed = await readControlJson(c, merchantPatch);
    if (!parsed.ok) return parsed.response;
    const merchant = ctx.state.updateMerchant(c.req.param("id"), parsed.value as Partial<Merchant>);
    if (!merchant) return fail(c, 404, "not_found", "Unknown merchant.");
    return reply(c, merchantView(merchant));
  });
  mountMerchantControl(r, ctx);

  // ---- sessions and trade-ins ----
  r.get("/sessions", (c) =>
    reply(c, {
      sessions: [...ctx.state.sessions.values()].map((s) => ({
        session_id: ctx.state.sessionIdOf(s, currentVersion(s).version),
        merchant_id: s.merchant_id,
        versions: s.versions.length,
        expires_at: ctx.clock.iso(s.expires_at),
        customer_id: s.customer?.id ?? null,
      })),
    }),
  );
  r.post("/sessions", async (c) => {
    const parsed = await readControlJson(c, sessionBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    if (!ctx.state.getMerchant(b.merchant_id))
      return fail(c, 404, "not_found", "Unknown merchant.");
    const { session, version } = ctx.state.bindSession(b.merchant_id, b.session_hash, b.customer);
    return reply(c, { session_id: ctx.state.sessionIdOf(session, version.version) }, 201);
  });
  r.post("/sessions/:hash/supersede", async (c) => {
    const parsed = await readControlJson(
      c,
      supersedeBody.default({ merchant_id: DEFAULT_MERCHANT, versions: 1 }),
    );
    if (!parsed.ok) return parsed.response;
    const hash = c.req.param("hash").split("|")[0] ?? "";
    let moved: ReturnType<typeof ctx.state.supersedeSession>;
    for (let i = 0; i < parsed.value.versions; i++) {
      moved = ctx.state.supersedeSession(parsed.value.merchant_id, hash, parsed.value.note);
    }
    if (!moved) return fail(c, 404, "not_found", "Unknown or expired session hash.");
    return reply(c, {
      session_id: ctx.state.sessionIdOf(moved.session, moved.version.version),
      note: moved.version.note,
    });
  });

  r.get("/tradeins", (c) =>
    reply(c, {
      tradein_items: [...ctx.state.tradeIns.values()].map((t) =>
        tradeInView(t, ctx.clock, ctx.state.itemSessionId(t)),
      ),
    }),
  );
  r.post("/tradeins", async (c) => {
    const parsed = await readControlJson(c, tradeInBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    const merchant = ctx.state.getMerchant(b.merchant_id);
    if (!merchant) return fail(c, 404, "not_found", "Unknown merchant.");
    const cur = b.currency ?? merchant.currency;
    let value = b.value;
    let device: ReturnType<typeof quote> | undefined;
    if (b.model_id) {
      device = quote(ctx.state.seed.catalog, b.model_id, b.answers ?? {}, cur);
      if (!device.ok) return fail(c, 400, "bad_request", device.reason);
      value ??= device.value;
    }
    // Without either, the store dates the item from its own `now`, so valid_until is exactly
    // created_at + the valuation lifetime (two reads of the clock could differ by a millisecond).
    const validUntil = b.valid_until
      ? Date.parse(b.valid_until)
      : b.valid_for_seconds !== undefined
        ? ctx.clock.now(merchant.id) + b.valid_for_seconds * 1000
        : undefined;
    const item = ctx.state.createTradeIn({
      merchant_id: merchant.id,
      session_hash: b.session_hash.split("|")[0] ?? b.session_hash,
      value: value ?? 15000,
      currency: cur,
      status: b.status,
      ...(validUntil !== undefined ? { valid_until: validUntil } : {}),
      ...(device?.ok ? { device: device.device, condition: device.condition } : {}),
    });
    return reply(
      c,
      { tradein_item: tradeInView(item, ctx.clock, ctx.state.itemSessionId(item)) },
      201,
    );
  });

  // ---- orders ----
  r.get("/orders", (c) =>
    reply(c, {
      orders: [...ctx.state.orders.values()].map((o) => ({
        ...orderView(o, ctx.clock),
        merchant_id: o.merchant_id,
        updates: o.updates.map((u) => ({ ...u, at: ctx.clock.iso(u.at) })),
      })),
    }),
  );
  r.post("/orders", async (c) => {
    const parsed = await readControlJson(c, orderBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    if (!ctx.state.getMerchant(b.merchant_id))
      return fail(c, 404, "not_found", "Unknown merchant.");
    const order = ctx.state.createOrder({
      merchant_id: b.merchant_id,
      ...(b.order_id ? { order_id: b.order_id } : {}),
      cart_id: b.cart_id,
      status: b.status,
      amount: b.amount,
      currency: b.currency,
      trade_in_discount: b.trade_in_discount,
      customer_id: b.customer_id ?? null,
      session_hash: b.session_hash ?? null,
      payment: b.payment,
    });
    return reply(c, orderView(order, ctx.clock), 201);
  });

  // ---- faults ----
  r.get("/faults", (c) => {
    const merchant = c.req.query("merchant");
    const faults = ctx.faults.list();
    return reply(c, {
      faults: merchant === undefined ? faults : faults.filter((f) => f.merchant === merchant),
    });
  });
  r.post("/faults", async (c) => {
    const parsed = await readControlJson(c, faultBody);
    if (!parsed.ok) return parsed.response;
    const { method, status, error, error_description, merchant, ...rest } = parsed.value;
    if (merchant !== undefined && !ctx.state.getMerchant(merchant)) {
      return fail(c, 404, "not_found", `Unknown merchant ${merchant}.`);
    }
    const rule = ctx.faults.add({
      ...rest,
      ...(merchant ? { merchant } : {}),
      ...(method ? { method } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(error ? { error } : {}),
      ...(error_description ? { error_description } : {}),
    });
    return reply(c, rule, 201);
  });
  r.delete("/faults/:id", (c) =>
    ctx.faults.remove(c.req.param("id"))
      ? reply(c, { deleted: c.req.param("id") })
      : fail(c, 404, "not_found", "Unknown fault id."),
  );
  r.delete("/faults", (c) => {
    ctx.faults.clear();
    return reply(c, { faults: [] });
  });

  // ---- journal ----
  r.get("/journal", (c) => {
    const q = z
      .object({
        after: z.coerce.number().int().min(0).optional(),
        limit: z.coerce.number().int().min(1).max(10_000).optional(),
        kind: z.enum(["request", "webhook"]).optional(),
        merchant: z.string().min(1).max(64).optional(),
      })
      .safeParse({
        after: c.req.query("after") || undefined,
        limit: c.req.query("limit") || undefined,
        kind: c.req.query("kind") || undefined,
        merchant: c.req.query("merchant"),
      });
    if (!q.success) {
      return fail(
        c,
        400,
        "bad_request",
        "after/limit must be integers; kind request or webhook; merchant a merchant id.",
      );
    }
    if (q.data.merchant !== undefined && !ctx.state.getMerchant(q.data.merchant)) {
      return fail(c, 404, "not_found", `Unknown merchant ${q.data.merchant}.`);
    }
    return reply(c, {
      entries: ctx.journal.read(q.data),
      last_seq: ctx.journal.lastSeq,
      capacity: ctx.journal.capacity,
    });
  });
  r.get("/journal/:seq", (c) => {
    const seq = Number(c.req.param("seq"));
    const entry = Number.isInteger(seq) ? ctx.journal.get(seq) : undefined;
    if (!entry) {
      return fail(
        c,
        404,
        "not_found",
        `Journal entry ${c.req.param("seq")} is not (or no longer) in the journal.`,
      );
    }
    return reply(c, presentEntry(entry));
  });
  r.delete("/journal", (c) => {
    ctx.journal.clear();
    return reply(c, { entries: [] });
  });

  // ---- the whole state as one snapshot (the --state / --export / --import file) ----
  r.get("/state", (c) => reply(c, saveState(ctx)));
  r.put(
    "/state",
    bodyLimit({
      maxSize: MAX_SNAPSHOT_BYTES,
      onError: (c) =>
        fail(c, 413, "payload_too_large", `A snapshot is at most ${MAX_SNAPSHOT_BYTES} bytes.`),
    }),
    async (c) => {
      const text = await c.req.text();
      if (text.trim() === "") return fail(c, 400, "bad_request", "A JSON body is required.");
      // Validated whole before anything changes: a bad snapshot leaves the state as it was.
      const parsed = parseSavedState(text);
      if (!parsed.ok) return fail(c, 400, "bad_request", `Not a valid snapshot: ${parsed.error}`);
      // Like POST /reset (journal, faults, config, modules' own state), then the snapshot's state.
      ctx.reset();
      loadState(ctx, parsed.value);
      const { state, webhooks = [] } = parsed.value;
      return reply(c, {
        status: "loaded",
        merchants: state.merchants.length,
        sessions: state.sessions.length,
        tradein_items: state.tradein_items.length,
        orders: state.orders.length,
        webhooks: webhooks.length,
      });
    },
  );

  // ---- device catalog (read-only, for demos and the wizard's tests) ----
  r.get("/catalog", (c) => reply(c, ctx.state.seed.catalog));

  return r;
}

export const controlModule: EmulatorModule = {
  name: "control",
  mount(app, ctx) {
    app.route(CONTROL_PREFIX, controlRoutes(ctx));
  },
};
