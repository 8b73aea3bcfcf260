// HTTP from the browser: the merchant's same-origin callbacks (contract: Merchant endpoints,
// rule 1: same-origin, with the shopper's cookie) and the service's SDK routes (CORS).
import type { Observer } from "./observe";
import type { ErrorBody, PurchaseData, ShopperData } from "./wire";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody>,
  ) {
    super(`${status} ${body.error ?? ""} ${body.error_description ?? ""}`.trim());
  }
}

async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & Partial<ErrorBody>;
  if (!response.ok) throw new HttpError(response.status, body);
  return body;
}

/** The shopper, or null for an anonymous shopper (404 from shopper_data). */
export async function fetchShopperData(
  callbackBase: string,
  observe: Observer,
): Promise<ShopperData | null> {
  const response = await fetch(`${callbackBase}/shopper_data`, {
    credentials: "same-origin",
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  observe.callback("shopper_data", response);
  if (response.status === 404 || response.status === 401) return null;
  return parse<ShopperData>(response);
}

/** Always fresh: the contract says purchase_data is called each time the payment modal opens. */
export async function fetchPurchaseData(
  callbackBase: string,
  observe: Observer,
): Promise<PurchaseData> {
  const response = await fetch(`${callbackBase}/purchase_data`, {
    credentials: "same-origin",
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  observe.callback("purchase_data", response);
  return parse<PurchaseData>(response);
}

export type ServiceApi = <T>(path: string, body?: unknown) => Promise<T>;

/**
 * How long one call to the service may take, answer read in full, before the SDK gives it up.
 * A service that never answers must not leave the shopper on "Processing payment…" for good: the
 * call fails (no success event, as for an error answer) and the shopper is told to try again.
 * 30 s: far beyond a healthy answer, and the time a shopper will still watch a spinner.
 */
export const SERVICE_CALL_TIME_LIMIT_MS = 30_000;

/** A call to the service that got no full answer within SERVICE_CALL_TIME_LIMIT_MS. */
export class ServiceTimeout extends Error {
  constructor(readonly path: string) {
    super(`the service did not answer ${path} within ${SERVICE_CALL_TIME_LIMIT_MS / 1000} s`);
  }
}

/**
 * The SDK learns the service's address from its own URL ({assets_url}/v1/main.js), so staging
 * and production differ only in the address the page imports (contract: Versioning).
 */
export function serviceApi(moduleUrl: string): ServiceApi {
  const origin = new URL(moduleUrl).origin;
  return async <T>(path: string, body?: unknown): Promise<T> => {
    // setTimeout, not AbortSignal.timeout: the page's own timers, which a test's clock can move.
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), SERVICE_CALL_TIME_LIMIT_MS);
    try {
      // A GET (fetch's default) with no body and no content type is a simple request: no CORS
      // preflight before it. A POST says its body is JSON, as the service takes it only.
      const send: RequestInit =
        body === undefined
          ? {}
          : {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            };
      const response = await fetch(`${origin}/sdk/v1${path}`, {
        ...send,
        credentials: "omit",
        cache: "no-store",
        signal: limit.signal,
      });
      const answer = await parse<T>(response);
      // parse reads a body cut off by the limit as an empty one: a cut answer is no answer.
      if (limit.signal.aborted) throw new ServiceTimeout(path);
      return answer;
    } catch (error) {
      if (limit.signal.aborted) throw new ServiceTimeout(path);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
