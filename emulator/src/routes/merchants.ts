import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { EmulatorContext, EmulatorEnv } from "../context";
import type { ApiUser, Merchant, OAuthClient } from "../domain";
import { readJson } from "../http/body";
import { cents } from "../http/cart";
import { clockAmountFields, clockAmountMs } from "../http/clock-amount";
import { fail, reply } from "../http/errors";
import { MONEY_KEYS } from "../http/notation";
import { merchantView } from "../http/views";

// Several merchants in one emulator (README, "Several merchants in one emulator"): a test
// worker clones a seed merchant under its own id and credentials, then resets, faults and moves
// the clock of that merchant alone. Control API, so never journaled nor faulted.

/** Merchants one emulator holds at most, seed included: a runaway loop cannot exhaust memory. */
export const MAX_MERCHANTS = 200;

const name = z.string().min(1).max(200);
const idLike = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 letters, digits, '_' or '-'");
const secret = z.string().min(8).max(200);
const iso = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "must be an ISO 8601 time");

const cloneBody = z
  .object({
    /** The new merchant's id. */
    id: idLike,
    name: name.optional(),
    products: z.enum(["valuations", "valuations+ep1"]).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code")
      .optional(),
    minimums: z.object({ tradein: cents, ep1: cents }).partial().optional(),
    allowed_origins: z.array(z.string().min(1).max(500)).max(20).optional(),
    webhook_base: z.string().url().max(2000).optional(),
    webhook_form: z.enum(["flat", "wrapped"]).optional(),
    /** Credentials; each defaults to one derived from the id (names) or random (secrets). */
    client_id: idLike.optional(),
    client_secret: secret.optional(),
    username: idLike.optional(),
    password: secret.optional(),
  })
  .strict();

const clockBody = z
  .object({
    ...clockAmountFields,
    now: iso.optional(),
    freeze: z.boolean().optional(),
    reset: z.literal(true).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "give an amount (ms, seconds, minutes, hours, days), now, freeze or reset",
  })
  .refine(
    (b) =>
      b.reset === undefined ||
      Object.entries(b).every(([k, v]) => k === "reset" || v === undefined),
    { message: "reset goes alone" },
  )
  .refine(
    (b) =>
      b.now === undefined ||
      [b.ms, b.seconds, b.minutes, b.hours, b.days].every((v) => v === undefined),
    { message: "give either now or an amount, not both" },
  );

const read = <S extends z.ZodType>(c: Context<EmulatorEnv>, schema: S) =>
  readJson(c, schema, { decimalKeys: MONEY_KEYS });

function merchantClockView(ctx: EmulatorContext, merchantId: string) {
  const now = ctx.clock.now(merchantId);
  return {
    merchant_id: merchantId,
    now: ctx.clock.iso(now),
    now_ms: now,
    ...ctx.clock.merchantView(merchantId),
  };
}

/** The merchant routes beyond list and patch: clone, delete, reset, clock. */
export function mountMerchantControl(r: Hono<EmulatorEnv>, ctx: EmulatorContext): void {
  const unknown = (c: Context<EmulatorEnv>, id: string) =>
    fail(c, 404, "not_found", `Unknown merchant ${id}.`);

  r.post("/merchants/:id/clone", async (c) => {
    const sourceId = c.req.param("id");
    const source = ctx.state.getMerchant(sourceId);
    if (!source) return unknown(c, sourceId);
    const parsed = await read(c, cloneBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    if (ctx.state.getMerchant(b.id)) {
      return fail(c, 409, "conflict", `Merchant ${b.id} exists already.`);
    }
    if (ctx.state.merchants.size >= MAX_MERCHANTS) {
      return fail(
        c,
        409,
        "conflict",
        `At most ${MAX_MERCHANTS} merchants: delete one (DELETE /__emulator/merchants/{id}) first.`,
      );
    }
    const clientId = b.client_id ?? `${b.id}-client`;
    if (ctx.state.getClient(clientId)) {
      return fail(c, 409, "conflict", `OAuth client ${clientId} exists already.`);
    }
    const template = [...ctx.state.users.values()].find((u) => u.merchant_id === source.id);
    const merchant: Merchant = {
      ...structuredClone(source),
      id: b.id,
      name: b.name ?? `${source.name} (${b.id})`,
      ...(b.products ? { products: b.products } : {}),
      ...(b.currency ? { currency: b.currency } : {}),
      minimums: { ...source.minimums, ...b.minimums },
      ...(b.allowed_origins ? { allowed_origins: b.allowed_origins } : {}),
      ...(b.webhook_base ? { webhook_base: b.webhook_base } : {}),
      ...(b.webhook_form ? { webhook_form: b.webhook_form } : {}),
    };
    const user: ApiUser = {
      id: `u_${b.id}_admin`,
      merchant_id: b.id,
      username: b.username ?? `${b.id}-admin`,
      password: b.password ?? randomBytes(12).toString("base64url"),
      scopes: [...(template?.scopes ?? ["core", "payments", "valuations", "updates"])],
    };
    const client: OAuthClient = {
      client_id: clientId,
      client_secret: b.client_secret ?? randomBytes(18).toString("base64url"),
      merchant_id: b.id,
    };
    ctx.state.addMerchant(merchant, [user], [client]);
    return reply(
      c,
      {
        merchant: merchantView(merchant),
        client: { client_id: client.client_id, client_secret: client.client_secret },
        user: {
          user_id: user.id,
          username: user.username,
          password: user.password,
          scopes: user.scopes.join(" "),
        },
        webhook_signing_key: `${user.id}-${merchant.id}`,
      },
      201,
    );
  });

  r.delete("/merchants/:id", (c) => {
    const id = c.req.param("id");
    if (!ctx.state.getMerchant(id)) return unknown(c, id);
    // The merchants the emulator started with stay (the routes default to m_demo).
    if (ctx.config.seed.merchants.some((m) => m.id === id)) {
      return fail(c, 409, "conflict", `${id} is a seed merchant: reset it instead.`);
    }
    ctx.resetMerchant(id);
    ctx.state.removeMerchant(id);
    return reply(c, { deleted: id });
  });

  r.post("/merchants/:id/reset", async (c) => {
    const id = c.req.param("id");
    if (!ctx.state.getMerchant(id)) return unknown(c, id);
    // No body, or an empty object: anything else is a caller that meant something else.
    if ((await c.req.text()).trim() !== "") {
      const parsed = await read(c, z.object({}).strict());
      if (!parsed.ok) return parsed.response;
    }
    ctx.resetMerchant(id);
    return reply(c, { status: "reset", merchant_id: id });
  });

  r.get("/merchants/:id/clock", (c) => {
    const id = c.req.param("id");
    if (!ctx.state.getMerchant(id)) return unknown(c, id);
    return reply(c, merchantClockView(ctx, id));
  });

  r.post("/merchants/:id/clock", async (c) => {
    const id = c.req.param("id");
    if (!ctx.state.getMerchant(id)) return unknown(c, id);
    const parsed = await read(c, clockBody);
    if (!parsed.ok) return parsed.response;
    const b = parsed.value;
    if (b.reset) {
      ctx.clock.resetMerchant(id);
    } else if (b.now !== undefined) {
      ctx.clock.setMerchant(id, Date.parse(b.now), b.freeze ?? false);
    } else {
      const ms = clockAmountMs(b);
      if (ms !== 0) ctx.clock.advanceMerchant(id, ms);
      if (b.freeze !== undefined) ctx.clock.setMerchant(id, ctx.clock.now(id), b.freeze);
    }
    return reply(c, merchantClockView(ctx, id));
  });
}
