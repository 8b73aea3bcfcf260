// The SDK's observations (emulator/README.md, "Go-live readiness"): what it POSTs to the service
// about the merchant's integration, each report stamped with its page's observation session.
import type { Request } from "@playwright/test";

/**
 * The report of `kind` this request carries, without the observation session's stamp
 * (merchant_id, token, seq); null when the request is no observation of that kind.
 */
export function sdkObservation<T>(request: Request, kind: string): T | null {
  if (request.method() !== "POST") return null;
  if (new URL(request.url()).pathname !== "/sdk/v1/observations") return null;
  const body = request.postDataJSON() as Record<string, unknown> | null;
  if (body?.kind !== kind) return null;
  const { merchant_id: _m, token: _t, seq: _s, ...report } = body;
  return report as T;
}
