// The go-live readiness report's routes: the report (JSON and a page of the inspector), the
// active checks, the test hook that declares raw session ids and salts, and the route where the
// SDK reports what it saw of the merchant's page and callbacks. Control routes are JSON POSTs
// like the rest of the control API.
import { z } from "zod";
import type { EmulatorModule } from "../context";
import { mediaType, readJson } from "../http/body";
import { fail, reply } from "../http/errors";
import { CONTROL_PREFIX } from "../http/middleware";
import { observationSessionsFor, REFUSAL_TEXT } from "./observation-sessions";
import { readinessPage } from "./page";
import { OBSERVATIONS_PATH } from "./passive";
import { readinessFor } from "./report";

const DEFAULT_MERCHANT = "m_demo";
const BASE = `${CONTROL_PREFIX}/readiness`;
/** An observed callback body is kept up to this size (the journal truncates at 64 KB too). */
const MAX_OBSERVED_TEXT = 64 * 1024;

const merchantBody = z.object({
  merchant_id: z.string().min(1).max(200).default(DEFAULT_MERCHANT),
});
const declareBody = z.object({
  merchant_id: z.string().min(1).max(200).default(DEFAULT_MERCHANT),
  session_id: z.string().min(1).max(1000).optional(),
  salt: z.string().min(1).max(1000).optional(),
});
const clearBody = z.object({ merchant_id: z.string().min(1).max(200).optional() });
const sessionBody = z.object({ merchant_id: z.string().min(1).max(200) });

/** Binds an observation to the SDK start-up that issued its token (observation-sessions.ts). */
const issued = {
  merchant_id: z.string().min(1).max(200),
  token: z.string().min(1).max(100),
  seq: z.number().int().min(1).max(1_000_000),
};

/** What the SDK reports (emulator/sdk/observe.ts): a callback's raw answer, or the option's markup. */
export const observationSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("callback"),
    ...issued,
    callback: z.enum(["shopper_data", "purchase_data"]),
    status: z.number().int().min(0).max(999),
    content_type: z.string().max(200),
    body_text: z.string().max(MAX_OBSERVED_TEXT),
  }),
  z.object({
    kind: z.literal("payment_option_markup"),
    ...issued,
    found: z.boolean(),
    name: z.string().max(200).nullable(),
    value: z.string().max(200).nullable(),
    module_name: z.string().max(200).nullable(),
    has_icon: z.boolean(),
    info_visible: z.boolean(),
    extra_visible_unselected: z.boolean(),
    /** The element showing info or extra, when one does (tag#id.class). */
    visible_in: z.string().max(300).nullable().optional(),
  }),
]);

export const readinessModule: EmulatorModule = {
  name: "readiness",
  mount(app, ctx) {
    const readiness = readinessFor(ctx);

    app.get(BASE, (c) => {
      const merchant = c.req.query("merchant") ?? DEFAULT_MERCHANT;
      if (!ctx.state.getMerchant(merchant) && !readiness.knows(merchant)) {
        return fail(c, 404, "not_found", `Unknown merchant ${merchant}.`);
      }
      return reply(c, readiness.report(merchant));
    });
    app.get(`${BASE}/page`, (c) => c.html(readinessPage()));

    app.post(`${BASE}/active`, async (c) => {
      const parsed = await readJson(c, merchantBody);
      if (!parsed.ok) return parsed.response;
      const merchant = parsed.value.merchant_id;
      if (!ctx.state.getMerchant(merchant)) {
        return fail(c, 404, "not_found", `Unknown merchant ${merchant}.`);
      }
      await readiness.runActive(merchant);
      return reply(c, readiness.report(merchant));
    });
    app.post(`${BASE}/declare`, async (c) => {
      const parsed = await readJson(c, declareBody);
      if (!parsed.ok) return parsed.response;
      const { merchant_id, session_id, salt } = parsed.value;
      const values = [session_id, salt].filter((v): v is string => v !== undefined);
      if (values.length === 0) return fail(c, 400, "bad_request", "Send session_id and/or salt.");
      readiness.declare(merchant_id, values);
      return reply(c, { declared: values.length });
    });
    app.post(`${BASE}/clear`, async (c) => {
      const parsed = await readJson(c, clearBody);
      if (!parsed.ok) return parsed.response;
      readiness.clear(parsed.value.merchant_id);
      return reply(c, { cleared: parsed.value.merchant_id ?? "all" });
    });

    // The SDK's report of the merchant's page (journaled like every SDK route: the journal IS
    // the evidence, and only an accepted observation, answered 204, is read by a rule). JSON
    // only, from the merchant's registered origin, with the token its SDK start-up was given.
    const sessions = observationSessionsFor(ctx);
    // The SDK starts its page's observation session: a token for this merchant and the page's
    // origin, which must be one the merchant registered.
    app.post(`${OBSERVATIONS_PATH}/session`, async (c) => {
      const parsed = await readJson(c, sessionBody);
      if (!parsed.ok) return parsed.response;
      const merchant = parsed.value.merchant_id;
      if (!ctx.state.getMerchant(merchant)) {
        return fail(c, 404, "not_found", `Unknown merchant ${merchant}.`);
      }
      const token = sessions.issue(merchant, c.req.header("origin"));
      if (token === null) {
        return fail(c, 403, "forbidden", "Observations come from one of the merchant's origins.");
      }
      return reply(c, { observation_token: token }, 201);
    });
    app.post(OBSERVATIONS_PATH, async (c) => {
      const refuse = (status: number, error: string, reason: string, text: string) => {
        c.set("journalMeta", { observation: "refused", reason });
        return fail(c, status, error, text);
      };
      if (mediaType(c) !== "application/json") {
        return refuse(415, "unsupported_media_type", "not_json", "Observations are JSON.");
      }
      const parsed = await readJson(c, observationSchema);
      if (!parsed.ok) {
        c.set("journalMeta", { observation: "refused", reason: "malformed" });
        return parsed.response;
      }
      const { merchant_id, token, seq } = parsed.value;
      const verdict = sessions.accept({
        merchantId: merchant_id,
        origin: c.req.header("origin"),
        token,
        seq,
      });
      if (!verdict.ok) {
        const status = verdict.reason === "replayed" ? 409 : 403;
        const error = status === 409 ? "conflict" : "forbidden";
        return refuse(status, error, verdict.reason, REFUSAL_TEXT[verdict.reason]);
      }
      c.set("journalMeta", { observation: "accepted" });
      return c.body(null, 204);
    });
  },
};
