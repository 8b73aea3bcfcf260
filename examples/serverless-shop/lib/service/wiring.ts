import "server-only";
import { drizzleServiceAdapter } from "@service-integration/drizzle-adapter/pg";
import {
  connectService,
  createNotificationInbox,
  processSingleton,
  retryDueRegistrations,
  runScheduledJob,
  serviceRouteHandlers,
  type TokenSealer,
} from "@service-integration/kit/server";
import { type Auth, auth, signedInUser } from "../auth";
import { db, type ShopDb } from "../db";
import { guestIdentity } from "../guest";
import { orders } from "../schema";
import { shopBaseUrl } from "../shop";
import { shopCallbacks, statuses } from "./callbacks";
import { checkoutBody } from "./checkout";

// The shop's wiring of the kit and the adapter. No timer anywhere: on a host without a resident
// process the register-purchase retries and the notification sweep run when a scheduler calls
// their job routes (app/api/service/jobs/*, protected by JOBS_SECRET).

/** The adapter as this shop configures it. */
export const serviceAdapter = (on: ShopDb, sealer: TokenSealer) =>
  drizzleServiceAdapter({ db: on, orders, shop: shopCallbacks(on), sealer });

/** The kit connected to the shop's settings and the adapter, once per instance. */
export const service = () =>
  processSingleton("serverless-service", () =>
    connectService({
      stores: (sealer) => serviceAdapter(db(), sealer),
      statuses,
      shopBaseUrl: shopBaseUrl(),
    }),
  );

/** The kit's SessionIdentity: the guest cookie, and Better Auth's user as the customer. */
export const identityWith = (by: Auth) =>
  guestIdentity(async (request) => (await signedInUser(request.headers, by))?.id ?? null)
    .sessionIdentity;
export const identity = () => processSingleton("serverless-identity", () => identityWith(auth()));

/** The five routes the shop mounts (app/api/service/*), each a request handler of the kit. */
export const serviceRoutes = serviceRouteHandlers({
  deps: () => ({ identity: identity(), ...service() }),
  checkoutBody,
});

/** A scheduler's call of a job route: one run, behind `Authorization: Bearer $JOBS_SECRET`. */
const jobRoute = (name: string, job: () => Promise<unknown>) => (request: Request) =>
  runScheduledJob(request, { name, secret: process.env.JOBS_SECRET, job });

export const jobRoutes = {
  /** register-purchase attempts that are due (card payments whose registration was queued). */
  tradeInRetry: jobRoute("trade-in-retry", () => retryDueRegistrations(service().tradeIns)),
  /** Order notifications the webhook stored and nobody applied yet. */
  notificationSweep: jobRoute("notification-sweep", async () => {
    const { servicePay, stores } = service();
    const inbox = createNotificationInbox({ ...servicePay, store: stores.servicePay });
    return inbox.sweep();
  }),
};
