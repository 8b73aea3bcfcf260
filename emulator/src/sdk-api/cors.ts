// CORS for the SDK bundle and the SDK-to-service routes: the merchant's page (e.g.
// http://localhost:3000) imports {assets_url}/v1/main.js and calls the service cross-origin.
// Only origins a merchant registered (`allowed_origins`) get an Access-Control-Allow-Origin.
import type { MiddlewareHandler } from "hono";
import type { EmulatorContext, EmulatorEnv } from "../context";

export function originAllowed(ctx: EmulatorContext, origin: string, merchantId?: string): boolean {
  if (merchantId !== undefined) {
    return ctx.state.getMerchant(merchantId)?.allowed_origins.includes(origin) ?? false;
  }
  for (const merchant of ctx.state.merchants.values()) {
    if (merchant.allowed_origins.includes(origin)) return true;
  }
  return false;
}

/** Answers preflights and adds the CORS headers for any merchant's allowed origin. */
export function cors(ctx: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    const allowed = origin !== undefined && originAllowed(ctx, origin);
    if (c.req.method === "OPTIONS") {
      const headers: Record<string, string> = { Vary: "Origin" };
      if (allowed) {
        headers["Access-Control-Allow-Origin"] = origin;
        headers["Access-Control-Allow-Methods"] = "GET, POST";
        headers["Access-Control-Allow-Headers"] = "content-type";
        headers["Access-Control-Max-Age"] = "600";
      }
      return c.body(null, 204, headers);
    }
    await next();
    c.res.headers.append("Vary", "Origin");
    if (allowed) c.res.headers.set("Access-Control-Allow-Origin", origin);
  };
}
