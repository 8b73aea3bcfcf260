import "server-only";
import { z } from "zod";
import { cartSchema } from "./cart.js";
import type { ServiceConfig } from "./config.js";
import {
  parseErrorBody,
  ServiceApiError,
  ServiceInputError,
  ServiceResponseError,
} from "./errors.js";
import {
  defaultRetryPolicy,
  type HttpObserver,
  type HttpRequest,
  HttpTransport,
  parseRetryAfter,
  type RetryPolicy,
  realTransportDeps,
  type TransportDeps,
} from "./http.js";
import {
  merchantsSchema,
  type OrderList,
  orderListSchema,
  type Session,
  sessionSchema,
  type TradeInItem,
  tradeInItemSchema,
  UPDATE_TYPES,
} from "./resources.js";
import type { TokenStore } from "./shop-ports.js";
import { TokenManager } from "./tokens.js";

/**
 * One method per service API endpoint (contract: Endpoints › Service API). Paths are written
 * exactly as the contract lists them: "Paths ending in a slash must be called with the slash;
 * the two paths without must be called without it. A wrong form fails."
 */

/** Body of POST /register-purchase. The contract names `cart` and `order_amount`; the field
 *  carrying the session hash is "not shown", and `session_hash` is the name the docs use. */
const registerPurchaseBodySchema = z.object({
  /** The shopper's session hash (HMAC-SHA256 hex). */
  session_hash: z.string().min(1),
  /** Base64 of the JSON Cart. */
  cart: z.base64().min(1),
  /** Integer cents; a decimal is refused here before the service answers 400. */
  order_amount: z.int().nonnegative(),
  /** Not in the contract ("not shown"); optional links to the shop's order that the bundled
   *  emulator records and a service may ignore. */
  order_id: z.string().min(1).optional(),
  /** Not in the contract either: the customer's id, when the shop gives one. */
  customer_id: z.string().min(1).optional(),
});
/** The body of POST /register-purchase as sent. */
export type RegisterPurchaseBody = z.infer<typeof registerPurchaseBodySchema>;

/** A line of a partial shipment or return; the contract does not show the field names, so the
 *  cart item's `id` and a `quantity` are sent. */
const orderUpdateItemSchema = z.object({
  id: z.string().min(1),
  quantity: z.int().positive(),
});

const orderUpdateSchema = z
  .object({
    order_id: z.string().min(1),
    update_type: z.enum(UPDATE_TYPES),
    items: z.array(orderUpdateItemSchema).min(1).optional(),
    cart: cartSchema.optional(),
  })
  .superRefine((update, ctx) => {
    const partial =
      update.update_type === "partial_shipment" || update.update_type === "partial_return";
    if (partial && !update.items) {
      ctx.addIssue({
        code: "custom",
        path: ["items"],
        message: `${update.update_type} needs items`,
      });
    }
    if (update.update_type === "cart_update" && !update.cart) {
      ctx.addIssue({
        code: "custom",
        path: ["cart"],
        message: "cart_update needs the updated cart",
      });
    }
  });
/** The body of POST /payments/orders/update as sent (the order id's, items' and cart's field
 *  names are "not shown": `order_id`, `items`, `cart`). */
export type OrderUpdate = z.infer<typeof orderUpdateSchema>;

/** How long a shopper's request may wait for one call (http.ts: at most the policy's). */
export type CallPatience = Pick<HttpRequest, "maxAttempts" | "timeoutMs">;

/** The service API's calls (contract: Endpoints › Service API), each with the bearer token,
 *  the retry policy and the answer's shape checked. Made by createServiceClient. */
export class ServiceClient {
  constructor(
    private readonly transport: HttpTransport,
    /** The token manager every call takes its bearer token from. */
    readonly tokens: TokenManager,
  ) {}

  /** GET /core/merchants/ — shape not shown by the contract, returned as parsed JSON. */
  getMerchants(): Promise<unknown> {
    return this.call({ method: "GET", path: "/core/merchants/" }, merchantsSchema, false);
  }

  /** GET /core/sessions/{session_hash}/ — 404 unknown or expired, 410 superseded version.
   *  Encoded because a session id returned for a re-query contains `|`. */
  getSession(sessionHash: string, patience: CallPatience = {}): Promise<Session> {
    return this.call(
      { method: "GET", path: `/core/sessions/${encodeURIComponent(sessionHash)}/`, ...patience },
      sessionSchema,
    );
  }

  /** GET /core/tradeinitems/{trade_in_id}/ — 404 unknown, 410 valuation expired. */
  getTradeInItem(tradeInId: string, patience: CallPatience = {}): Promise<TradeInItem> {
    return this.call(
      {
        method: "GET",
        path: `/core/tradeinitems/${encodeURIComponent(tradeInId)}/`,
        ...patience,
      },
      tradeInItemSchema,
    );
  }

  /**
   * POST /register-purchase (no slash). Not repeated after a timeout: the service shows no way to
   * ask whether a purchase was registered, so a blind repeat could register it twice. A timeout
   * surfaces as ServiceTimeoutError and the caller queues it (register-purchase.ts). 429 and 503
   * are still retried in place: the service refused those, so nothing was registered.
   */
  async registerPurchase(body: RegisterPurchaseBody): Promise<unknown> {
    const valid = validateInput("register-purchase", registerPurchaseBodySchema, body);
    return this.call(
      { method: "POST", path: "/register-purchase", ...jsonBody(valid), safeToRepeat: false },
      z.unknown(),
      false,
    );
  }

  /**
   * POST /payments/orders/update (no slash); the token needs scope `updates`. Repeating an
   * update after a timeout is not assumed safe either (a repeated partial return would count
   * twice), so it is left to the admin who started it.
   */
  async updateOrder(update: OrderUpdate): Promise<unknown> {
    const valid = validateInput("orders/update", orderUpdateSchema, update);
    return this.call(
      { method: "POST", path: "/payments/orders/update", ...jsonBody(valid), safeToRepeat: false },
      z.unknown(),
      false,
    );
  }

  /** GET /payments/orders/?status=&limit= — used for reconciliation. */
  async listOrders(query: { status?: string; limit?: number } = {}): Promise<OrderList> {
    const { status, limit } = validateInput(
      "payments/orders",
      z.object({ status: z.string().min(1).optional(), limit: z.int().positive().optional() }),
      query,
    );
    return this.call(
      { method: "GET", path: "/payments/orders/", query: { status, limit } },
      orderListSchema,
    );
  }

  private async call<T extends z.ZodType>(
    request: HttpRequest,
    schema: T,
    bodyShown = true,
  ): Promise<z.output<T>> {
    const response = await this.tokens.send(this.transport, {
      ...request,
      headers: { accept: "application/json", ...request.headers },
    });
    if (response.status < 200 || response.status >= 300) {
      throw new ServiceApiError({
        status: response.status,
        method: request.method,
        path: request.path,
        ...parseErrorBody(response.text),
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
      });
    }
    // Some success bodies are "not shown" and may be empty; that is null, not an error.
    let json: unknown = null;
    if (response.text.trim() !== "") {
      try {
        json = JSON.parse(response.text);
      } catch {
        // A 2xx whose body the contract does not show still means success: keep the text.
        if (!bodyShown) return response.text as z.output<T>;
        throw new ServiceResponseError(request.method, request.path, "body is not JSON");
      }
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ServiceResponseError(request.method, request.path, z.prettifyError(parsed.error));
    }
    return parsed.data;
  }
}

/** What createServiceClient takes. */
export interface CreateServiceClientOptions {
  /** The settings (readServiceConfig): base URL, credentials. */
  config: ServiceConfig;
  /** Where the tokens are kept (the adapter's `tokens`). */
  store: TokenStore;
  /** fetch, sleep, random and clock; default the real ones (tests pass fakes). */
  deps?: TransportDeps;
  /** Timeouts and retries; default defaultRetryPolicy. */
  policy?: RetryPolicy;
  /** Told of every call (the integration inspector's log). */
  observer?: HttpObserver;
}

/** Wires transport, token manager and client. In the app:
 *  `createServiceClient({ config, store: prismaServiceAdapter({ db, shop, sealer: createTokenSealer(config.tokenKey) }).tokens })`
 *  (lib/service-adapter/service.ts). */
export function createServiceClient(options: CreateServiceClientOptions): ServiceClient {
  const deps = options.deps ?? realTransportDeps;
  const transport = new HttpTransport(
    options.config.apiBaseUrl,
    deps,
    options.policy ?? defaultRetryPolicy,
    options.observer,
  );
  const tokens = new TokenManager({
    credentials: options.config,
    transport,
    store: options.store,
    now: deps.now,
  });
  return new ServiceClient(transport, tokens);
}

function jsonBody(value: unknown): Pick<HttpRequest, "body" | "headers"> {
  return { body: JSON.stringify(value), headers: { "content-type": "application/json" } };
}

function validateInput<T extends z.ZodType>(
  operation: string,
  schema: T,
  value: unknown,
): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ServiceInputError(operation, z.prettifyError(parsed.error));
  return parsed.data;
}
