import "server-only";
import { drizzleServiceAdapter } from "@service-integration/drizzle-adapter/sqlite";
import type { SessionIdentity } from "@service-integration/kit";
import {
  connectService,
  processSingleton,
  retryDueRegistrations,
  serviceJobRoutes,
  serviceRouteHandlers,
  startJobTimer,
  type TokenSealer,
} from "@service-integration/kit/server";
import { db, type ShopDb } from "../db";
import { orders } from "../schema";
import { sessionOfRequest } from "../session";
import { shopBaseUrl } from "../shop";
import { shopCallbacks, statuses } from "./callbacks";
import { checkoutBody } from "./checkout";

// The shop's wiring of the kit and the adapter. Its routes, job routes and instrumentation.ts are
// what `service-integration-kit init` writes (scripts/minimal-shop.mjs runs it): they import
// serviceRoutes, jobRoutes and startRetryJob from here.

/** The adapter as this shop configures it (its tests run the kit's conformance suite on it). */
export const serviceAdapter = (on: ShopDb, sealer: TokenSealer) =>
  drizzleServiceAdapter({ db: on, orders, shop: shopCallbacks(on), sealer });

/** The kit connected to the shop's settings and the adapter, once per process. */
export const service = () =>
  processSingleton("mini-service", () =>
    connectService({
      stores: (sealer) => serviceAdapter(db(), sealer),
      statuses,
      shopBaseUrl: shopBaseUrl(),
    }),
  );

/** The kit's SessionIdentity: the shop's sealed session cookie, read only. */
export const identity: SessionIdentity = { ofRequest: async (r) => sessionOfRequest(r) };

/** The register-purchase retry job every 2 s (instrumentation.ts, as init writes it). */
export const startRetryJob = () =>
  startJobTimer("mini-retry-job", 2_000, () => retryDueRegistrations(service().tradeIns));

/** The five routes the shop mounts (app/api/service/*), each a request handler of the kit. */
export const serviceRoutes = serviceRouteHandlers({
  deps: () => ({ identity, ...service() }),
  checkoutBody,
});

/** app/api/service/jobs/* (init's): the jobs for a scheduler, behind JOBS_SECRET (unset: off). */
export const jobRoutes = serviceJobRoutes(service);
