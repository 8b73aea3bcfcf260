import { randomUUID } from "node:crypto";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Clock } from "./clock";
import type {
  EmulatorApp,
  EmulatorConfig,
  EmulatorContext,
  EmulatorEnv,
  EmulatorModule,
} from "./context";
import type { Seed } from "./domain";
import { Faults } from "./faults";
import { wrongSlashFor } from "./http/endpoints";
import { fail, internalError } from "./http/errors";
import { controlGuard, journalRequests, serviceGuards } from "./http/middleware";
import { Journal } from "./journal";
import { RateLimiter } from "./rate-limit";
import { readinessModule } from "./readiness/module";
import { controlModule } from "./routes/control";
import { coreModule } from "./routes/core";
import { inspectorModule } from "./routes/inspector";
import { oauthModule } from "./routes/oauth";
import { openApiModule } from "./routes/openapi";
import { ordersModule } from "./routes/orders";
import { registerPurchaseModule } from "./routes/register-purchase";
import { cors } from "./sdk-api/cors";
import { sdkApiModule } from "./sdk-api/routes";
import { SEED } from "./state/seed";
import { newIdPrefix, Store } from "./state/store";
import { testMerchantModule } from "./test-merchant/module";
import { webhooksModule } from "./webhooks/module";

/**
 * Every module of the emulator, mounted in this order. Helper modules (the browser SDK and its
 * routes, the webhook dispatcher) add one line each here.
 */
const MODULES: EmulatorModule[] = [
  controlModule, // /__emulator/* (control API) — before the others, bypasses faults
  inspectorModule, // GET /__emulator/ (live inspector page)
  oauthModule, // POST /oauth2/token/
  coreModule, // GET /core/merchants/, /core/sessions/{hash}/, /core/tradeinitems/{id}/
  registerPurchaseModule, // POST /register-purchase
  ordersModule, // POST /payments/orders/update, GET /payments/orders/
  sdkApiModule, // /assets/v1/main.js and the SDK-to-service routes /sdk/v1/*
  webhooksModule, // signed order webhook dispatcher, /__emulator/webhooks/*
  testMerchantModule, // /__emulator/test-merchant/* (bare test page, callbacks, receiver)
  readinessModule, // /__emulator/readiness* (go-live report) and the SDK's /sdk/v1/observations
  openApiModule, // GET /openapi.json (the service API as OpenAPI 3.1)
];

export interface EmulatorOptions {
  seed?: Seed;
  config?: Partial<Omit<EmulatorConfig, "seed">>;
  /** Extra modules (tests, tools). */
  modules?: EmulatorModule[];
  /** Part of every id handed out; a fresh one per boot by default (state/store.ts). */
  idPrefix?: string;
}

export interface Emulator {
  app: EmulatorApp;
  ctx: EmulatorContext;
  /** Starts the HTTP server (port 0 = any free port) and the modules' background work. */
  listen(port?: number, hostname?: string): Promise<RunningEmulator>;
}

export interface RunningEmulator {
  port: number;
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_CONFIG: Omit<EmulatorConfig, "seed"> = {
  rateLimitPerMinute: 100,
  maintenance: false,
  maintenanceRetryAfter: 30,
  journalCapacity: 2000,
  faultSeed: 42,
  log: false,
  controlHosts: ["localhost", "127.0.0.1", "[::1]"],
  slowSendGapMs: 500,
};

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const seed = options.seed ?? SEED;
  const config: EmulatorConfig = { ...DEFAULT_CONFIG, ...options.config, seed };
  const initial = { ...config };
  const clock = new Clock();
  const resetListeners = new Set<() => void>();
  const beforeResetListeners = new Set<() => void>();
  const merchantResetListeners = new Set<(merchantId: string) => void>();
  /** Resets per merchant; a global reset changes every merchant's run through `resets`. */
  const merchantResets = new Map<string, number>();
  let resets = 0;
  const ctx: EmulatorContext = {
    state: new Store(seed, clock, options.idPrefix ?? newIdPrefix()),
    clock,
    journal: new Journal(config.journalCapacity),
    faults: new Faults(config.faultSeed),
    rateLimiter: new RateLimiter(config.rateLimitPerMinute),
    config,
    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
    onBeforeReset(listener) {
      beforeResetListeners.add(listener);
      return () => beforeResetListeners.delete(listener);
    },
    get resets() {
      return resets;
    },
    onMerchantReset(listener) {
      merchantResetListeners.add(listener);
      return () => merchantResetListeners.delete(listener);
    },
    runOf(merchantId) {
      const own = merchantId === undefined ? 0 : (merchantResets.get(merchantId) ?? 0);
      return `${resets}.${own}`;
    },
    resetMerchant(merchantId) {
      merchantResets.set(merchantId, (merchantResets.get(merchantId) ?? 0) + 1);
      const clients = [...ctx.state.clients.values()]
        .filter((c) => c.merchant_id === merchantId)
        .map((c) => c.client_id);
      ctx.state.resetMerchant(merchantId);
      ctx.clock.resetMerchant(merchantId);
      ctx.journal.clearMerchant(merchantId);
      ctx.faults.clearMerchant(merchantId);
      ctx.rateLimiter.forget(clients);
      for (const listener of merchantResetListeners) listener(merchantId);
    },
    reset() {
      for (const listener of beforeResetListeners) listener();
      resets += 1;
      // Back to the state the emulator started with, including the configured limits.
      ctx.state.reset();
      ctx.clock.reset();
      ctx.journal.clear();
      ctx.faults.clear();
      ctx.rateLimiter.reset();
      Object.assign(config, initial);
      ctx.rateLimiter.limit = config.rateLimitPerMinute;
      for (const listener of resetListeners) listener();
    },
  };

  const app: EmulatorApp = new Hono<EmulatorEnv>();
  app.use("*", controlGuard(config));
  app.use("*", journalRequests(ctx));
  // The SDK's bundle and routes answer the merchant's page cross-origin (sdk-api/cors.ts). Their
  // CORS wraps the faults and the maintenance switch, so a faulted answer reaches the page as the
  // service's own error would (status and body readable: the SDK's error handling is what runs,
  // not a CORS failure), and a preflight is answered as the service's CORS layer answers it.
  app.use("/assets/*", cors(ctx));
  app.use("/sdk/v1/*", cors(ctx));
  app.use("*", serviceGuards(ctx));
  const modules = [...MODULES, ...(options.modules ?? [])];
  for (const module of modules) module.mount(app, ctx);

  app.notFound((c) => {
    const path = c.req.path;
    const meant = wrongSlashFor(path);
    if (meant) {
      const slash = meant.path.endsWith("/") ? "with" : "without";
      return fail(
        c,
        404,
        "not_found",
        `No such path ${path}: this endpoint is ${meant.method} ${meant.path} (${slash} the trailing slash).`,
      );
    }
    return fail(c, 404, "not_found", `No such path ${c.req.method} ${path}.`);
  });
  // Contract: no input may crash the service or give a bare 500.
  app.onError((err, c) => {
    const id = randomUUID();
    console.error(`[emulator] unhandled error, correlation id ${id}:`, err);
    return internalError(c, "Internal error", id);
  });

  return {
    app,
    ctx,
    listen(port = 0, hostname?: string) {
      return new Promise((resolve) => {
        const server = serve(
          { fetch: app.fetch, port, ...(hostname ? { hostname } : {}) },
          (info) => {
            for (const module of modules) module.start?.(ctx);
            const host =
              hostname && hostname !== "0.0.0.0" && hostname !== "::" ? hostname : "localhost";
            resolve({
              port: info.port,
              url: `http://${host}:${info.port}`,
              async close() {
                for (const module of modules) await module.stop?.();
                await new Promise<void>((done) => {
                  if ("closeAllConnections" in server) server.closeAllConnections();
                  server.close(() => done());
                });
              },
            });
          },
        );
      });
    },
  };
}
