// Wires the dispatcher into the emulator: one dispatcher per emulator context, its poll started
// with the server, its queue cleared on reset, and the control API under /__emulator/webhooks.
import { z } from "zod";
import type { EmulatorContext, EmulatorModule } from "../context";
import { fail, reply } from "../http/errors";
import {
  ATTEMPT_TIMEOUT_MS,
  RETRY_SCHEDULE_MS,
  UnknownNotificationError,
  WebhookDispatcher,
} from "./dispatcher";

const dispatchers = new WeakMap<EmulatorContext, WebhookDispatcher>();
const running = new Set<WebhookDispatcher>();

export function webhooksFor(ctx: EmulatorContext): WebhookDispatcher {
  let dispatcher = dispatchers.get(ctx);
  if (!dispatcher) {
    const created = new WebhookDispatcher({
      clock: ctx.clock,
      journal: ctx.journal,
      state: ctx.state,
    });
    ctx.onReset(() => created.reset());
    ctx.onMerchantReset((merchantId) => created.resetMerchant(merchantId));
    dispatchers.set(ctx, created);
    dispatcher = created;
  }
  return dispatcher;
}

const delaySchema = z.object({
  seconds: z
    .number()
    .nonnegative()
    .max(7 * 24 * 3600),
});
const reorderSchema = z.object({ earlier: z.string().min(1), later: z.string().min(1) });
const settingsSchema = z.object({
  first_attempt_delay_seconds: z
    .number()
    .nonnegative()
    .max(24 * 3600),
});

const deliveryFaultsSchema = z.object({
  faults: z
    .array(z.enum(["unreachable", "answer_lost"]))
    .min(1)
    .max(20),
  /** Only this merchant's notifications take them (several merchants in one emulator). */
  merchant: z.string().min(1).max(100).optional(),
});

async function json(req: Request): Promise<unknown> {
  return req.json().catch(() => undefined);
}

export const webhooksModule: EmulatorModule = {
  name: "webhooks",
  mount(app, ctx) {
    const webhooks = webhooksFor(ctx);
    const base = "/__emulator/webhooks";
    const settings = () => ({
      retry_schedule_seconds: RETRY_SCHEDULE_MS.map((ms) => ms / 1000),
      attempt_timeout_seconds: ATTEMPT_TIMEOUT_MS / 1000,
      first_attempt_delay_seconds: webhooks.firstAttemptDelayMs / 1000,
      delivery_faults: webhooks.deliveryFaults,
    });

    app.get(base, (c) => reply(c, { ...settings(), notifications: webhooks.list() }));
    app.put(`${base}/settings`, async (c) => {
      const parsed = settingsSchema.safeParse(await json(c.req.raw));
      if (!parsed.success)
        return fail(c, 400, "bad_request", parsed.error.issues[0]?.message ?? "");
      webhooks.firstAttemptDelayMs = parsed.data.first_attempt_delay_seconds * 1000;
      return reply(c, settings());
    });
    app.post(`${base}/delivery-faults`, async (c) => {
      const parsed = deliveryFaultsSchema.safeParse(await json(c.req.raw));
      if (!parsed.success) {
        return fail(
          c,
          400,
          "bad_request",
          'Send { faults: [...], merchant? }: 1 to 20 of "unreachable", "answer_lost".',
        );
      }
      const { faults, merchant } = parsed.data;
      if (merchant === undefined) {
        return reply(c, { delivery_faults: webhooks.failNextDeliveries(faults) });
      }
      if (!ctx.state.getMerchant(merchant)) {
        return fail(c, 404, "not_found", `Unknown merchant ${merchant}.`);
      }
      return reply(c, {
        merchant,
        delivery_faults: webhooks.failNextDeliveries(faults, merchant),
      });
    });
    app.post(`${base}/tick`, async (c) => {
      await webhooks.tick();
      return reply(c, { notifications: webhooks.list() });
    });
    app.post(`${base}/reorder`, async (c) => {
      const parsed = reorderSchema.safeParse(await json(c.req.raw));
      if (!parsed.success) return fail(c, 400, "bad_request", "Send { earlier, later } ids.");
      return guard(c, async () => ({
        attempts: await webhooks.reorder(parsed.data.earlier, parsed.data.later),
      }));
    });
    app.get(`${base}/:id`, (c) =>
      guard(c, async () => {
        const notification = webhooks.get(c.req.param("id"));
        if (!notification) throw new UnknownNotificationError(c.req.param("id"));
        return notification;
      }),
    );
    app.post(`${base}/:id/redeliver`, (c) =>
      guard(c, async () => ({ attempt: await webhooks.redeliver(c.req.param("id")) })),
    );
    app.post(`${base}/:id/twice`, (c) =>
      guard(c, async () => ({ attempts: await webhooks.sendTwice(c.req.param("id")) })),
    );
    app.post(`${base}/:id/wrong-signature`, (c) =>
      guard(c, async () => ({ attempt: await webhooks.sendWithWrongSignature(c.req.param("id")) })),
    );
    app.post(`${base}/:id/delay`, async (c) => {
      const parsed = delaySchema.safeParse(await json(c.req.raw));
      if (!parsed.success) return fail(c, 400, "bad_request", "Send { seconds } (a number ≥ 0).");
      return guard(c, async () => webhooks.delay(c.req.param("id"), parsed.data.seconds * 1000));
    });
  },
  start(ctx) {
    const dispatcher = webhooksFor(ctx);
    dispatcher.start();
    running.add(dispatcher);
  },
  async stop() {
    for (const dispatcher of running) {
      dispatcher.stop();
      await dispatcher.idle();
    }
    running.clear();
  },
};

type Ctx = Parameters<typeof reply>[0];

async function guard(c: Ctx, run: () => Promise<unknown>): Promise<Response> {
  try {
    return reply(c, await run());
  } catch (error) {
    if (error instanceof UnknownNotificationError) return fail(c, 404, "not_found", error.message);
    throw error;
  }
}
