import "server-only";
import { drizzleServiceAdapter } from "@service-integration/drizzle-adapter/sqlite";
import type { SessionIdentity } from "@service-integration/kit";
import {
  createServiceClient,
  createTokenSealer,
  createWebhookSecretSource,
  errorJson,
  internalError,
  type NotificationDeps,
  processSingleton,
  readJsonBody,
  readOrderCreationMode,
  readServiceConfig,
  retryDueRegistrations,
  type TradeInDeps,
} from "@service-integration/kit/server";
import type { z } from "zod";
import { db, type ShopDb } from "../db";
import { orders } from "../schema";
import { type MiniSession, sessionOfRequest } from "../session";
import { shopBaseUrl } from "../shop";
import { shopCallbacks, statuses } from "./callbacks";

// The shop's wiring of the kit and the adapter.

/** The adapter as this shop configures it (its tests run the kit's conformance suite on it). */
export const serviceAdapter = (on: ShopDb, sealer: ReturnType<typeof createTokenSealer>) =>
  drizzleServiceAdapter({ db: on, orders, shop: shopCallbacks(on), sealer });

/** One adapter, API client and set of the kit's deps per process. */
export const service = () =>
  processSingleton("mini-service", () => {
    const config = readServiceConfig();
    const adapter = serviceAdapter(db(), createTokenSealer(config.tokenKey));
    const client = createServiceClient({ config, store: adapter.tokens });
    const mode = readOrderCreationMode();
    const servicePay: NotificationDeps = {
      store: adapter.servicePay,
      statuses,
      mode,
      shopBaseUrl: shopBaseUrl(),
    };
    const tradeIns: TradeInDeps = { store: adapter.tradeIns, client, now: () => new Date() };
    const webhookSecret = createWebhookSecretSource(() => client.tokens.getIdentity());
    return { adapter, client, servicePay, tradeIns, webhookSecret };
  });

/** The kit's SessionIdentity: the shop's sealed session cookie, read only. */
export const identity: SessionIdentity = { ofRequest: async (r) => sessionOfRequest(r) };

/** The register-purchase retry job, once per process (instrumentation.ts). */
export function startRetryJob(): void {
  processSingleton("mini-retry-job", () => {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      await retryDueRegistrations(service().tradeIns).catch((e) => console.error("[retry job]", e));
      running = false;
    };
    return setInterval(tick, 2_000).unref();
  });
}

/** A route of the shop's same-origin JSON POSTs: the session (401), the JSON body (415/400),
 *  the schema (400), then `handle`; whatever throws is the kit's internal error (500). */
export const sessionJsonRoute =
  <S extends z.ZodType>(
    where: string,
    schema: S,
    handle: (session: MiniSession, data: z.output<S>) => Promise<Response>,
  ) =>
  async (request: Request): Promise<Response> => {
    try {
      const session = sessionOfRequest(request);
      if (!session) return errorJson(401, "unauthorized", "No shop session: reload the page.");
      const body = await readJsonBody(request);
      if (!body.ok) return body.response;
      const parsed = schema.safeParse(body.value);
      if (parsed.success) return await handle(session, parsed.data);
      const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(" ")))].join(", ");
      return errorJson(400, "bad_request", `Check these fields: ${fields}.`);
    } catch (error) {
      return internalError(where, error);
    }
  };
