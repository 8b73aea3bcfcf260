import "server-only";
import type { z } from "zod";
import type { ValuationClient } from "./accepted-valuation.js";
import type { WaitUntil } from "./after-response.js";
import { purchaseDataFor, shopperDataFor } from "./callbacks.js";
import { ServiceInputError } from "./errors.js";
import type { NotificationInbox } from "./notification-inbox.js";
import {
  type NotificationDeps,
  type OrderWebhookDeps,
  receiveOrderWebhook,
  type WebhookSecretSource,
} from "./order-webhook.js";
import {
  createServicePendingOrder,
  pendingOrderResponse,
  saveServiceCheckout,
  serviceCheckoutResponse,
} from "./pending-order.js";
import { readBodyAtMost, WEBHOOK_BODY_LIMIT } from "./request-body.js";
import { errorJson, internalError, json, readJsonBody } from "./route-responses.js";
import { sessionHash } from "./session-hash.js";
import type {
  CheckoutDetails,
  SessionIdentity,
  ShopperIdentity,
  ShopperSource,
} from "./shop-ports.js";
import { SIGNATURE_HEADER } from "./webhook-signature.js";
import { wellFormedString } from "./well-formed.js";

/**
 * The five routes a shop mounts for the service (contract: Merchant endpoints; Events › Webhook;
 * the payment option's two checkout routes), as request handlers: each is the kit's function
 * for it with the input checks, the contract's error form and the 500 with a correlation id
 * around it. A route file is then one line:
 *
 *   export const GET = serviceRoutes.shopperData;   // app/api/service/shopper_data/route.ts
 *
 * A shop whose routes need more (its own rate limit, its own logging) calls the same kit
 * functions itself, as this repository's shop does.
 */
export interface ServiceRouteDeps {
  /** The shopper's session identity (the session hash is made of it). */
  identity: SessionIdentity;
  /** Service Pay's deps: the store, the status rules, the order-creation mode, the shop's URL. */
  servicePay: NotificationDeps;
  /** The service's API client (the checkout route asks it for the session's valuation). */
  client: ValuationClient;
  /** Where the webhook's signing secret comes from (createWebhookSecretSource). */
  webhookSecret: WebhookSecretSource;
  /** The merchant endpoints' view of the shop. */
  shopper: ShopperSource;
  /**
   * The webhook's store-then-apply inbox (createNotificationInbox, one per process): a
   * delivery is answered once stored and applied after the answer. Without it each delivery
   * is stored and applied in one transaction before the answer.
   */
  inbox?: Pick<NotificationInbox, "receive">;
}

/** What serviceRouteHandlers takes: the deps, the checkout body's schema, labels, log. */
export interface ServiceRoutesOptions {
  /** The deps, asked for on each request (a host makes them once per process). */
  deps: () => ServiceRouteDeps;
  /** The checkout routes' body as the shop's form posts it, giving the kit's CheckoutDetails;
   *  its failures are answered 400 naming the fields (fieldLabels). */
  checkoutBody: z.ZodType<CheckoutDetails>;
  /** How the shop's form labels a field (`{ postal_code: "postal code" }`), for 400 answers. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** Where the webhook logs what it could not apply (it answered 200 already). */
  log?: OrderWebhookDeps["log"];
  /**
   * With an inbox: where the webhook hands the apply of what it stored, so it finishes within
   * the request's life on a host that freezes the function after the response (default Next's
   * `after()`, after-response.ts).
   */
  waitUntil?: WaitUntil;
}

/** The five routes' request handlers, each mounted at its path (app/api/service/*). */
export interface ServiceRouteHandlers {
  /** GET {merchant_callbacks_base}/shopper_data */
  shopperData(request: Request): Promise<Response>;
  /** GET {merchant_callbacks_base}/purchase_data */
  purchaseData(request: Request): Promise<Response>;
  /** POST {merchant_webhook_base}/order */
  orderWebhook(request: Request): Promise<Response>;
  /** POST the shop's checkout route (ShopRoutes.checkout): keeps the checkout's details. */
  checkout(request: Request): Promise<Response>;
  /** POST the shop's pending-order route (ShopRoutes.pendingOrder), on ready-to-place-order. */
  pendingOrder(request: Request): Promise<Response>;
}

/** `["billing", "postal_code"]` → "billing postal code": the field as the shopper knows it. */
function fieldName(path: readonly PropertyKey[], labels: Readonly<Record<string, string>>) {
  return path
    .map((part) => (typeof part === "string" ? (labels[part] ?? part) : null))
    .filter((part): part is string => part !== null)
    .join(" ")
    .replaceAll("_", " ");
}

/**
 * 400 for a body that failed its schema: `error_description` a sentence a shopper can act on
 * ("Check these fields: email, billing postal code."), `fields` the detail for an integrator.
 */
export function invalidFieldsResponse(
  error: z.ZodError,
  labels: Readonly<Record<string, string>> = {},
): Response {
  const fields = error.issues.map((issue) => ({
    field: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const names = [...new Set(error.issues.map((i) => fieldName(i.path, labels)))].filter(Boolean);
  const description =
    names.length > 0
      ? `Check these fields: ${names.join(", ")}.`
      : "The body must be a JSON object with the expected fields.";
  return json({ error: "bad_request", error_description: description, fields }, 400);
}

/** The start of the shop's same-origin JSON POST routes: the session (401 without one), the
 *  JSON body (415 / 413 / 400, readJsonBody), then the body as JSON, unchecked. */
async function sessionAndBody(
  request: Request,
  identity: SessionIdentity,
): Promise<
  { ok: true; session: ShopperIdentity; body: unknown } | { ok: false; response: Response }
> {
  const session = await identity.ofRequest(request);
  if (!session) {
    return {
      ok: false,
      response: errorJson(401, "unauthorized", "No shop session: reload the page."),
    };
  }
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  return { ok: true, session, body: body.value };
}

const cartIdSchema = wellFormedString().min(1).max(100).optional();

/** The five routes (shopper data, purchase data, the order webhook, the checkout and the
 *  pending order), each with its input checks and the contract's error form. */
export function serviceRouteHandlers(options: ServiceRoutesOptions): ServiceRouteHandlers {
  const labels = options.fieldLabels ?? {};
  const guarded =
    (where: string, handle: (request: Request) => Promise<Response>) =>
    async (request: Request): Promise<Response> => {
      try {
        return await handle(request);
      } catch (error) {
        return internalError(where, error);
      }
    };

  return {
    shopperData: guarded("shopper_data", async (request) => {
      const { identity, shopper } = options.deps();
      const result = await shopperDataFor({ shop: shopper, identity }, request);
      return json(result.body, result.status);
    }),

    purchaseData: guarded("purchase_data", async (request) => {
      const { identity, shopper, servicePay } = options.deps();
      try {
        return json(
          await purchaseDataFor({ shop: shopper, identity }, request, servicePay.shopBaseUrl),
        );
      } catch (error) {
        // A cart the contract's Cart cannot carry (cart.ts): the contract's 400, named.
        if (!(error instanceof ServiceInputError)) throw error;
        const detail = `This cart cannot be paid with the service: ${error.detail}`;
        return errorJson(400, "bad_request", detail);
      }
    }),

    orderWebhook: guarded("order webhook", async (request) => {
      // The raw bytes, read once and at most 64 KB: the signature is over them (Authentication 5).
      const raw = await readBodyAtMost(request, WEBHOOK_BODY_LIMIT);
      if (!raw) return errorJson(413, "payload_too_large", "The body is larger than 64 KB.");
      const { servicePay, webhookSecret, inbox } = options.deps();
      const result = await receiveOrderWebhook(raw, request.headers.get(SIGNATURE_HEADER), {
        ...servicePay,
        secret: webhookSecret,
        ...(inbox ? { inbox } : {}),
        ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
        ...(options.log ? { log: options.log } : {}),
      });
      return json(result.body, result.status);
    }),

    checkout: guarded("service checkout", async (request) => {
      const deps = options.deps();
      const input = await sessionAndBody(request, deps.identity);
      if (!input.ok) return input.response;
      const details = options.checkoutBody.safeParse(input.body);
      if (!details.success) return invalidFieldsResponse(details.error, labels);
      const { sessionId, salt, customerId = null } = input.session;
      const saved = await saveServiceCheckout(
        { store: deps.servicePay.store, client: deps.client },
        { sessionId, sessionHash: sessionHash(sessionId, salt), customerId, details: details.data },
      );
      return serviceCheckoutResponse(saved);
    }),

    pendingOrder: guarded("pending-order", async (request) => {
      const deps = options.deps();
      const input = await sessionAndBody(request, deps.identity);
      if (!input.ok) return input.response;
      const body = input.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return errorJson(400, "bad_request", "The body must be a JSON object.");
      }
      const cartIdInput = cartIdSchema.safeParse((body as { cart_id?: unknown }).cart_id);
      if (!cartIdInput.success)
        return errorJson(400, "bad_request", "cart_id must be the cart's id.");
      const cartId = cartIdInput.data;
      // The details are optional: without them the ones the checkout route kept are used; sent
      // but invalid, they are refused rather than silently replaced by the kept ones.
      const withDetails = Object.keys(body).some((key) => key !== "cart_id");
      const details = withDetails ? options.checkoutBody.safeParse(body) : null;
      if (details && !details.success) return invalidFieldsResponse(details.error, labels);
      const result = await createServicePendingOrder(deps.servicePay, {
        sessionId: input.session.sessionId,
        customerId: input.session.customerId ?? null,
        ...(cartId ? { cartId } : {}),
        ...(details?.success ? { details: details.data } : {}),
      });
      return pendingOrderResponse(result);
    }),
  };
}
