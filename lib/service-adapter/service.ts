import "server-only";
import {
  assertProductionServiceSettings,
  type BrowserServiceConfiguration,
  browserServiceConfiguration,
  createNotificationInbox,
  createServiceClient,
  createTokenSealer,
  createWebhookSecretSource,
  installIntegrationLog,
  integrationObserver,
  type NotificationDeps,
  type NotificationInbox,
  processSingleton,
  readOrderCreationMode,
  readServiceConfig,
  realTransportDeps,
  retryDueRegistrations,
  type ServiceClient,
  startJobTimer,
  type TokenSealer,
  type TradeInDeps,
  type WebhookSecretSource,
} from "@service-integration/kit/server";
import type { PrismaServiceAdapter } from "@service-integration/prisma-adapter";
import { prismaServiceAdapter as onPostgres } from "@service-integration/prisma-adapter/pg";
import { prismaServiceAdapter as onSqlite } from "@service-integration/prisma-adapter/sqlite";
import { getConfig, parseConfig } from "@/lib/config";
import { type Db, getDb, isPostgres } from "@/lib/db/client";
import type { OrderWriter } from "@/lib/shop/orders";
import { shopRoutes } from "./checkout-wiring";
import { shopCallbacks, shopOrderStatuses } from "./shop-callbacks";
import { shopNow, shopSleep } from "./shop-clock";

// The shop's wiring of the kit: the one service client per process, the webhook signing
// secret, and the kit's ports on the shop's database, which @service-integration/prisma-adapter
// implements on its own models given this shop's callbacks (./shop-callbacks.ts). Routes, pages,
// actions and the retry job take them from here, never build their own.

/** The token sealer of SERVICE_TOKEN_KEY, made when first used: only the token store needs
 *  the service's settings, so the other ports work without them (a shop not yet configured). */
let tokenSealer: TokenSealer | undefined;
const lazySealer: TokenSealer = {
  seal: (field, plain) => {
    tokenSealer ??= createTokenSealer(readServiceConfig().tokenKey);
    return tokenSealer.seal(field, plain);
  },
  open: (field, sealed) => {
    tokenSealer ??= createTokenSealer(readServiceConfig().tokenKey);
    return tokenSealer.open(field, sealed);
  },
};

/** The adapter over `db` (default the app's client), one per client: the provider's locks
 *  (PostgreSQL or SQLite) follow the client's database. */
export function serviceAdapter(db: Db = getDb()): PrismaServiceAdapter {
  const adapters = processSingleton(
    "service-adapters",
    () => new WeakMap<object, PrismaServiceAdapter>(),
  );
  const known = adapters.get(db);
  if (known) return known;
  const make = isPostgres(db) ? onPostgres : onSqlite;
  const adapter: PrismaServiceAdapter = make({
    db,
    shop: shopCallbacks(db, () => adapter),
    sealer: lazySealer,
  });
  adapters.set(db, adapter);
  return adapter;
}

/**
 * The one writer of order history for the shop's own order changes (card checkout, back office:
 * lib/shop/orders.ts takes it as an argument): the adapter's, the same that writes the service's
 * changes, so OrderStatusChange has one writer (docs/decisions/concurrent-order-changes.md).
 */
export function orderWriter(db: Db = getDb()): OrderWriter {
  return serviceAdapter(db);
}

/** One client per process, so the token manager's single-flight renewal covers every request
 *  (and the retry job: error classes are recognised across bundled copies, errors.ts). */
export function getServiceClient(): ServiceClient {
  return processSingleton("service-client", () => {
    const config = readServiceConfig();
    return createServiceClient({
      config,
      store: serviceAdapter().tokens,
      // Each attempt's time limit on the shop's clock: real time, except that a test build's
      // suite can move it past a call the service never answers (./shop-clock.ts).
      deps: { ...realTransportDeps, timeLimit: shopSleep },
      // Every attempt, for the integration inspector (only inside a shopper's request context,
      // so background calls are not shown to anyone).
      observer: integrationObserver,
    });
  });
}

export function getWebhookSecretSource(): WebhookSecretSource {
  return processSingleton("webhook-secret", () =>
    createWebhookSecretSource(() => getServiceClient().tokens.getIdentity()),
  );
}

/**
 * Run once when a server starts (instrumentation.ts): with NODE_ENV=production a missing or
 * invalid service setting stops the server, naming what is missing, instead of the shop quietly
 * talking to the demo's emulator (docs/decisions/production-settings.md). Outside production the
 * demo's values stand in and this does nothing.
 */
export function checkServiceSettingsAtStart(env: Record<string, string | undefined> = process.env) {
  assertProductionServiceSettings(env);
  if (env.NODE_ENV === "production")
    browserServiceConfiguration(parseConfig(env).SHOP_BASE_URL, shopRoutes, env);
}

let browserConfiguration: BrowserServiceConfiguration | undefined;

/**
 * The SDK's configuration every shop page renders (packages/kit/src/sdk-config.ts), built from the
 * environment once per process, as getConfig is: the environment does not change while the
 * server runs, and reading all of it for every page was 2 % of a page's CPU.
 */
export function shopBrowserServiceConfiguration(): BrowserServiceConfiguration {
  browserConfiguration ??= browserServiceConfiguration(getConfig().SHOP_BASE_URL, shopRoutes);
  return browserConfiguration;
}

/** What the webhook, the pending order and reconciliation need: the store and the settings. */
export function servicePayDeps(): NotificationDeps {
  return {
    store: serviceAdapter().servicePay,
    statuses: shopOrderStatuses,
    mode: readOrderCreationMode(),
    shopBaseUrl: getConfig().SHOP_BASE_URL,
  };
}

/**
 * The webhook's store-then-apply inbox, one per process: its group commit gathers the
 * deliveries this process answers (docs/decisions/webhook-storage.md). The settings are read
 * when used, as servicePayDeps reads them.
 */
export function getNotificationInbox(): NotificationInbox {
  // Keyed by the client, so a test that installs its own database gets an inbox on it.
  const db = getDb();
  const inboxes = processSingleton(
    "notification-inboxes",
    () => new WeakMap<object, NotificationInbox>(),
  );
  const known = inboxes.get(db);
  if (known) return known;
  const inbox = createNotificationInbox({
    store: serviceAdapter(db).servicePay,
    statuses: shopOrderStatuses,
    get mode() {
      return readOrderCreationMode();
    },
    get shopBaseUrl() {
      return getConfig().SHOP_BASE_URL;
    },
    log: (message, error) => console.error(`[order webhook] ${message}`, error),
  });
  inboxes.set(db, inbox);
  return inbox;
}

/**
 * Applies what was stored and never applied (a stop between a 200 and its apply, an apply
 * that failed) once when the server starts and then every `NOTIFICATION_SWEEP_INTERVAL_MS`
 * (default 30 000; 0 turns the timer off, the start-up sweep still runs). Every instance may
 * sweep: each row is claimed in the database before it is applied.
 */
export function startNotificationSweep(env: Record<string, string | undefined> = process.env) {
  const sweep = () => getNotificationInbox().sweep();
  processSingleton("notification-sweep-at-start", () =>
    sweep().catch((error) => console.error("[order webhook] sweep at start", error)),
  );
  // Every run claims each row in the database, so this one and the start-up's may overlap.
  startJobTimer(
    "order webhook: sweep of stored notifications",
    Number(env.NOTIFICATION_SWEEP_INTERVAL_MS ?? 30_000),
    sweep,
  );
}

/** The Service Pay payment start: the store, and the one client, read lazily so a service that
 *  is not configured gives an unknown valuation instead of a failed payment start. */
export function servicePaymentStartDeps(): NotificationDeps & { client: ServiceClient } {
  return {
    ...servicePayDeps(),
    get client() {
      return getServiceClient();
    },
  };
}

/** The card checkout's trade-in step and its retry job: the shop's database, the one client,
 *  the shop's clock (real time; a test build's can be moved, ./shop-clock.ts). The client is read lazily, so a missing service setting cannot stop the
 *  registration row from being written (the job retries once the setting is fixed). */
export function tradeInDeps(): TradeInDeps {
  return {
    store: serviceAdapter().tradeIns,
    get client() {
      return getServiceClient();
    },
    now: shopNow,
  };
}

/** The integration inspector's log in the shop's database, for every instance (once per
 *  process, at start: instrumentation.ts). */
export function installIntegrationLogInDatabase(): void {
  // The database is reached when an entry is written or read, so installing connects nothing.
  installIntegrationLog({
    append: (key, entry) => serviceAdapter().integrationLog.append(key, entry),
    read: (key, afterSeq) => serviceAdapter().integrationLog.read(key, afterSeq),
  });
}

/**
 * Starts the retry job's timer once per process (instrumentation.ts). `TRADE_IN_RETRY_INTERVAL_MS`
 * (default 2000) sets how often due rows are looked for; a run still going when the next tick
 * comes is not overlapped.
 */
export function startTradeInRetryJob(env: Record<string, string | undefined> = process.env): void {
  startJobTimer("trade-in retry job", Number(env.TRADE_IN_RETRY_INTERVAL_MS ?? 2_000), () =>
    retryDueRegistrations(tradeInDeps()),
  );
}

/** What the back office's order updates and reconciliation need. */
export function serviceOrderDeps() {
  return {
    ...servicePayDeps(),
    orders: serviceAdapter().orders,
    client: getServiceClient(),
  };
}
