// The emulator's whole state as one JSON document: what `--state FILE` saves on exit and loads at
// start, what `--export FILE` / `--import FILE` write and read, and what the control API answers
// at `GET /__emulator/state` and takes at `PUT /__emulator/state`. It holds the store (seed,
// merchants, tokens, sessions, trade-ins, orders, registered purchases, id counters and prefix),
// the webhook queue and the clock — not the journal, faults or config (README, "Run it").
import { z } from "zod";
import type { EmulatorContext } from "../context";
import { ORDER_STATUSES, SCOPES, UPDATE_TYPES } from "../domain";
import type { Notification } from "../webhooks/dispatcher";
import { webhooksFor } from "../webhooks/module";
import { SESSION_DEFAULTS } from "./seed";
import type { Snapshot } from "./store";

export interface SavedState {
  state: Snapshot;
  /** The clock's offset from real time (ms); a restart keeps the moved clock. */
  clock_offset_ms?: number;
  /** Set when the clock stood still: the emulator time it stands at (ms). */
  clock_frozen_at_ms?: number;
  /** Merchants whose own clock was moved (README, "Several merchants in one emulator"): the
   *  offset from the emulator clock, or the time it stands at. */
  merchant_clocks?: Record<string, { offset_ms: number; frozen_at_ms?: number }>;
  webhooks?: Notification[];
}

/** A snapshot larger than this is refused (413): far beyond any test run's state. */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

// ---- schema: the shapes of src/domain.ts; unknown keys are kept, as a newer emulator wrote them

const text = z.string();
const id = z.string().min(1);
const cents = z.number().int();
const millis = z.number().finite();
const currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code");
const scopes = z.array(z.enum(SCOPES));

const merchant = z.looseObject({
  id,
  name: text,
  products: z.enum(["valuations", "valuations+ep1"]),
  currency,
  minimums: z.looseObject({ tradein: cents, ep1: cents }),
  allowed_origins: z.array(text),
  webhook_base: text,
  webhook_form: z.enum(["flat", "wrapped"]),
  // Files saved before these settings existed take the seed's defaults.
  session_versioning: z.enum(["as_is", "regenerate"]).default(SESSION_DEFAULTS.session_versioning),
  session_id_form: z.enum(["hash_version", "uuid"]).default(SESSION_DEFAULTS.session_id_form),
  tradein_item_form: z.enum(["object", "id"]).default(SESSION_DEFAULTS.tradein_item_form),
});

const catalog = z.looseObject({
  categories: z.array(z.looseObject({ id, name: text })),
  models: z.array(
    z.looseObject({
      id,
      category: id,
      brand: text,
      name: text,
      base_prices: z.record(z.string(), cents),
    }),
  ),
  questions: z.array(
    z.looseObject({
      id,
      text,
      categories: z.array(text),
      answers: z.array(z.looseObject({ id, label: text, factor: z.number().finite() })),
    }),
  ),
});

const seed = z.looseObject({
  merchants: z.array(merchant),
  users: z.array(z.looseObject({ id, merchant_id: id, username: id, password: text, scopes })),
  clients: z.array(z.looseObject({ client_id: id, client_secret: text, merchant_id: id })),
  catalog,
});

const accessToken = z.looseObject({
  token: id,
  client_id: id,
  user_id: id,
  merchant_id: id,
  scopes,
  expires_at: millis,
});

const cart = z.looseObject({
  id: text,
  currency,
  items: z.array(
    z.looseObject({
      id: text,
      name: text,
      description: text,
      url: text,
      quantity: z.number().int(),
      price: cents,
      tax: cents,
      total: cents,
    }),
  ),
  price: cents,
  tax: cents,
  discounts: z.array(z.looseObject({ id: text, name: text, total: cents })).optional(),
  total: cents,
});

const session = z.looseObject({
  hash: id,
  merchant_id: id,
  // Never empty: binding a session creates version 1.
  versions: z
    .array(
      z.looseObject({
        version: z.number().int().min(1),
        uuid: z.string().optional(),
        created_at: millis,
        note: text.optional(),
      }),
    )
    .min(1),
  customer: z
    .looseObject({
      id: text,
      email: text.optional(),
      given_name: text.optional(),
      family_name: text.optional(),
    })
    .optional(),
  created_at: millis,
  expires_at: millis,
});

const tradeIn = z.looseObject({
  id,
  merchant_id: id,
  session_hash: id,
  session_version: z.number().int().min(1),
  status: z.enum(["offered", "accepted", "used", "cancelled"]),
  value: cents,
  currency,
  device: z.looseObject({ category: text, model_id: text, brand: text, name: text }),
  condition: z.looseObject({
    answers: z.record(z.string(), z.string()),
    factor: z.number().finite(),
  }),
  created_at: millis,
  accepted_at: millis.optional(),
  used_at: millis.optional(),
  valid_until: millis,
  used_by_order: text.optional(),
});

const order = z.looseObject({
  id,
  merchant_id: id,
  order_id: id,
  cart_id: id,
  status: z.enum(ORDER_STATUSES),
  amount: cents,
  currency,
  trade_in_discount: cents,
  customer_id: text.nullable(),
  session_hash: text.nullable(),
  tradein_item_id: text.nullable(),
  payment: z.enum(["ep1", "other"]),
  cart: cart.nullable(),
  created_at: millis,
  updated_at: millis,
  updates: z.array(
    z.looseObject({
      update_type: z.enum([...UPDATE_TYPES, "status"]),
      at: millis,
      status: z.enum(ORDER_STATUSES),
      items: z.array(z.looseObject({ id: text, quantity: z.number().int() })).optional(),
      cart: cart.optional(),
    }),
  ),
});

const notification = z.looseObject({
  id,
  event: z.enum(["order.payment_completed", "order.status_updated"]),
  merchant_id: id,
  order_id: text,
  cart_id: text,
  url: text,
  body: text,
  created_at: text,
  status: z.enum(["scheduled", "delivered", "failed"]),
  next_attempt_at: millis.nullable(),
  failures: z.number().int().min(0),
  attempts: z.array(
    z.looseObject({
      n: z.number().int(),
      kind: z.enum(["scheduled", "redeliver", "twice", "reorder", "wrong_signature"]),
      at: text,
      status: z.number().int(),
      duration_ms: z.number().finite(),
      ok: z.boolean(),
      error: text.optional(),
    }),
  ),
});

const snapshot = z.looseObject({
  version: z.literal(1),
  seed,
  counters: z.record(z.string(), z.number().int().min(0)),
  merchants: z.array(merchant),
  access_tokens: z.array(accessToken),
  refresh_tokens: z.array(accessToken.extend({ revoked: z.boolean() })),
  sessions: z.array(session),
  tradein_items: z.array(tradeIn),
  orders: z.array(order),
  purchases: z.array(z.tuple([text, id])),
  id_prefix: z
    .string()
    .regex(/^[0-9a-z]*$/, "must be lower-case letters and digits")
    .optional(),
});

export const savedStateSchema = z
  .looseObject({
    state: snapshot,
    clock_offset_ms: millis.optional(),
    clock_frozen_at_ms: millis.optional(),
    merchant_clocks: z
      .record(id, z.object({ offset_ms: millis, frozen_at_ms: millis.optional() }))
      .optional(),
    webhooks: z.array(notification).optional(),
  })
  .superRefine((saved, issues) => {
    // Everything must belong to a merchant of the snapshot: the routes look merchants up by id.
    const merchants = new Set(saved.state.merchants.map((m) => m.id));
    const check = (list: { merchant_id: string }[], path: (string | number)[]) => {
      list.forEach((item, n) => {
        if (!merchants.has(item.merchant_id)) {
          issues.addIssue({
            code: "custom",
            path: [...path, n, "merchant_id"],
            message: `unknown merchant ${item.merchant_id}`,
          });
        }
      });
    };
    check(saved.state.access_tokens, ["state", "access_tokens"]);
    check(saved.state.refresh_tokens, ["state", "refresh_tokens"]);
    check(saved.state.sessions, ["state", "sessions"]);
    check(saved.state.tradein_items, ["state", "tradein_items"]);
    check(saved.state.orders, ["state", "orders"]);
    check(saved.webhooks ?? [], ["webhooks"]);
    for (const merchantId of Object.keys(saved.merchant_clocks ?? {})) {
      if (!merchants.has(merchantId)) {
        issues.addIssue({
          code: "custom",
          path: ["merchant_clocks", merchantId],
          message: `unknown merchant ${merchantId}`,
        });
      }
    }
  });

// ---- taking and applying a snapshot

/** The whole state now (a deep copy: later requests do not change it). */
export function saveState(ctx: EmulatorContext): SavedState {
  const merchantClocks = ctx.clock.merchantClocks();
  return {
    state: ctx.state.snapshot(),
    clock_offset_ms: ctx.clock.offset,
    ...(ctx.clock.frozen ? { clock_frozen_at_ms: ctx.clock.now() } : {}),
    ...(Object.keys(merchantClocks).length > 0 ? { merchant_clocks: merchantClocks } : {}),
    webhooks: webhooksFor(ctx).snapshot(),
  };
}

/**
 * Replaces the state with a validated snapshot. All or nothing: should applying it throw, the
 * state from before is put back and the error rethrown.
 */
export function loadState(ctx: EmulatorContext, saved: SavedState): void {
  const before = saveState(ctx);
  try {
    apply(ctx, structuredClone(saved));
  } catch (err) {
    apply(ctx, before);
    throw err;
  }
}

function apply(ctx: EmulatorContext, saved: SavedState): void {
  ctx.state.restore(saved.state);
  ctx.clock.reset(); // every merchant's clock too
  if (saved.clock_frozen_at_ms !== undefined) {
    ctx.clock.set(saved.clock_frozen_at_ms, true);
  } else if (saved.clock_offset_ms) {
    ctx.clock.advance(saved.clock_offset_ms);
  }
  for (const [merchantId, own] of Object.entries(saved.merchant_clocks ?? {})) {
    if (own.frozen_at_ms !== undefined) ctx.clock.setMerchant(merchantId, own.frozen_at_ms, true);
    else ctx.clock.advanceMerchant(merchantId, own.offset_ms);
  }
  webhooksFor(ctx).restore(saved.webhooks ?? []);
}

/** Reads a snapshot from JSON text: the state, or why it is refused. */
export function parseSavedState(
  json: string,
): { ok: true; value: SavedState } | { ok: false; error: string } {
  if (Buffer.byteLength(json, "utf8") > MAX_SNAPSHOT_BYTES) {
    return { ok: false, error: `larger than ${MAX_SNAPSHOT_BYTES} bytes` };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: "not valid JSON" };
  }
  const parsed = savedStateSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length > 0 ? i.path.join(".") : "body"}: ${i.message}`)
      .join("; ");
    return { ok: false, error: issues };
  }
  return { ok: true, value: parsed.data as SavedState };
}
