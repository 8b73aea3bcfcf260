import "server-only";
import { retryDueRegistrations, type TradeInDeps } from "./card-trade-in.js";
import { createServiceClient, type ServiceClient } from "./client.js";
import { readOrderCreationMode, readServiceConfig, type ServiceConfig } from "./config.js";
import { createNotificationInbox } from "./notification-inbox.js";
import {
  createWebhookSecretSource,
  type NotificationDeps,
  type WebhookSecretSource,
} from "./order-webhook.js";
import { processSingleton } from "./process-singleton.js";
import { runScheduledJob } from "./scheduled-jobs.js";
import type {
  OrderStatusRules,
  ServicePayStore,
  ShopperSource,
  StoredNotificationStore,
  TokenStore,
  TradeInRegistrationStore,
} from "./shop-ports.js";
import { createTokenSealer, type TokenSealer } from "./token-sealing.js";

/** The store ports a shop's adapter gives (an adapter package's result has them all). */
export interface ServiceStores {
  /** The service's tokens and renewal lease. */
  tokens: TokenStore;
  /** Kept checkouts, pending orders, notifications. */
  servicePay: ServicePayStore;
  /** The card orders' register-purchase rows. */
  tradeIns: TradeInRegistrationStore;
  /** What the merchant endpoints read (the shop's callbacks and the kept checkouts). */
  shopper: ShopperSource;
}

/** What connectService takes: the adapter, the shop's statuses and public address. */
export interface ConnectServiceOptions<S extends ServiceStores> {
  /** The adapter, given the sealer its token store seals with (made of SERVICE_TOKEN_KEY). */
  stores: (sealer: TokenSealer) => S;
  /** The shop's order statuses. */
  statuses: OrderStatusRules;
  /** The shop's public address (purchase data's links, the order's confirmation URL). */
  shopBaseUrl: string;
  /** Where the settings are read from (default: process.env; config.ts says which). */
  env?: Record<string, string | undefined>;
}

/** What the kit's functions and route handlers need, made once from the settings and stores. */
export interface ConnectedService<S extends ServiceStores> {
  /** The settings as read. */
  config: ServiceConfig;
  /** The adapter's stores, made with the token sealer. */
  stores: S;
  /** The service API client on the token store. */
  client: ServiceClient;
  /** Service Pay's deps (pending orders, the webhook, the confirmation). */
  servicePay: NotificationDeps;
  /** register-purchase's deps (the card step, the retry job). */
  tradeIns: TradeInDeps;
  /** The order webhook's signing secret, `<user_id>-<merchant_id>` (Authentication 5). */
  webhookSecret: WebhookSecretSource;
  /** The merchant endpoints' source (the adapter's `shopper`). */
  shopper: ShopperSource;
}

/**
 * The kit connected to a shop: the settings read (and refused when missing in production,
 * config.ts), the stores made with the token sealer, the API client on the token store, and the
 * deps each kit function takes. Make it once per process (processSingleton): the client's token
 * manager shares one renewal among the process's requests.
 */
export function connectService<S extends ServiceStores>(
  options: ConnectServiceOptions<S>,
): ConnectedService<S> {
  const config = readServiceConfig(options.env);
  const stores = options.stores(createTokenSealer(config.tokenKey));
  const client = createServiceClient({ config, store: stores.tokens });
  return {
    config,
    stores,
    client,
    servicePay: {
      store: stores.servicePay,
      statuses: options.statuses,
      mode: readOrderCreationMode(options.env),
      shopBaseUrl: options.shopBaseUrl,
    },
    tradeIns: { store: stores.tradeIns, client, now: () => new Date() },
    webhookSecret: createWebhookSecretSource(() => client.tokens.getIdentity()),
    shopper: stores.shopper,
  };
}

/**
 * Runs `job` every `intervalMs` in this process, once per process (processSingleton by `name`),
 * never two runs at once, never keeping the process alive; a failed run is logged and the next
 * one runs as usual. For `next start` and other resident processes: a host without one calls
 * the job's route from a scheduler instead (scheduled-jobs.ts). `intervalMs` 0 (or less, or not
 * a number) starts nothing.
 */
export function startJobTimer(
  name: string,
  intervalMs: number,
  job: () => Promise<unknown>,
  log: (message: string, error: unknown) => void = (message, error) =>
    console.error(message, error),
): void {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) return;
  processSingleton(`job-timer.${name}`, () => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job()
        .catch((error) => log(`[${name}]`, error))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref?.();
    return timer;
  });
}

/** A request handler of a job route. */
export type JobRoute = (request: Request) => Promise<Response>;

/**
 * The two background jobs as routes a platform scheduler calls, for a host without a resident
 * process (app/api/service/jobs/*; docs/decisions/scheduled-jobs.md): `tradeInRetry`, the
 * register-purchase attempts that are due (retryDueRegistrations), and `notificationSweep`, the
 * order notifications the webhook stored and nobody applied yet. Each call is one run behind
 * `Authorization: Bearer <secret>` (runScheduledJob: refused while the secret is unset); the
 * secret is read at each call, JOBS_SECRET by default.
 */
export function serviceJobRoutes(
  service: () => ConnectedService<ServiceStores & { servicePay: StoredNotificationStore }>,
  secret: () => string | undefined = () => process.env.JOBS_SECRET,
): {
  /** POST handler: one run of the register-purchase retry job. */
  tradeInRetry: JobRoute;
  /** POST handler: one sweep of stored notifications not yet applied. */
  notificationSweep: JobRoute;
} {
  const route =
    (name: string, job: () => Promise<unknown>): JobRoute =>
    (request) =>
      runScheduledJob(request, { name, secret: secret(), job });
  return {
    tradeInRetry: route("trade-in-retry", () => retryDueRegistrations(service().tradeIns)),
    notificationSweep: route("notification-sweep", async () => {
      const { servicePay, stores } = service();
      const inbox = createNotificationInbox({ ...servicePay, store: stores.servicePay });
      return inbox.sweep();
    }),
  };
}
