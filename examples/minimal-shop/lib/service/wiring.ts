import "server-only";
import { drizzleServiceAdapter } from "@service-integration/drizzle-adapter/sqlite";
import {
  connectService,
  processSingleton,
  retryDueRegistrations,
  serviceJobRoutes,
  serviceRouteHandlers,
  startJobTimer,
  type TokenSealer,
} from "@service-integration/kit/server";
import {
  checkoutBody,
  database,
  identity,
  ordersTable,
  type ShopDb,
  shopBaseUrl,
  shopCallbacks,
  statuses,
} from "./callbacks";

// The kit and the Drizzle adapter connected to what your shop supplies (./callbacks.ts). Written
// by `service-integration-kit init`: the same in every shop, nothing in it to fill in.

/** The adapter on your database (your conformance test runs the kit's suite on it). */
export const serviceAdapter = (db: ShopDb, sealer: TokenSealer) =>
  drizzleServiceAdapter({ db, orders: ordersTable(), shop: shopCallbacks(db), sealer });

/** The kit connected to the settings (SERVICE_*) and the adapter, once per process. */
export const service = () =>
  processSingleton("service-integration", () =>
    connectService({
      stores: (sealer) => serviceAdapter(database(), sealer),
      statuses,
      shopBaseUrl: shopBaseUrl(),
    }),
  );

/** The five routes of app/api/service/*, each a request handler of the kit. */
export const serviceRoutes = serviceRouteHandlers({
  deps: () => ({ identity, ...service() }),
  checkoutBody,
});

/** The register-purchase retry job every 2 s, in a resident process (instrumentation.ts). */
export const startRetryJob = () =>
  startJobTimer("service-retry-job", 2_000, () => retryDueRegistrations(service().tradeIns));

/** app/api/service/jobs/*: the same jobs for a scheduler, behind JOBS_SECRET (unset: off). */
export const jobRoutes = serviceJobRoutes(service);
