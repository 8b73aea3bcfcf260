import { getDb } from "@/lib/db/client";
import { shopperDataFor } from "@/lib/service/callbacks";
import { internalError, json } from "@/lib/service/route-responses";
import { SHOPPER_NOT_FOUND } from "@/lib/service/shopper-data";
import { readRequestSession } from "@/lib/service-adapter/request-session";
import { createShopperSource } from "@/lib/service-adapter/shopper-source";

// GET {merchant_callbacks_base}/shopper_data (contract: Merchant endpoints, Shopper data).
// Same-origin from the SDK: no CORS, no OPTIONS (rule 1).
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const session = await readRequestSession(request);
    if (!session) return json(SHOPPER_NOT_FOUND, 404);
    const result = await shopperDataFor(createShopperSource(getDb()), session);
    return json(result.body, result.status);
  } catch (error) {
    return internalError("shopper_data", error);
  }
}
