import { internalError, json, shopperDataFor } from "@service-integration/kit/server";
import { getDb } from "@/lib/db/client";
import { shopSessionIdentity } from "@/lib/service-adapter/request-session";
import { createShopperSource } from "@/lib/service-adapter/shopper-source";

// GET {merchant_callbacks_base}/shopper_data (contract: Merchant endpoints, Shopper data).
// Same-origin from the SDK: no CORS, no OPTIONS (rule 1).
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const result = await shopperDataFor(
      { shop: createShopperSource(getDb()), identity: shopSessionIdentity },
      request,
    );
    return json(result.body, result.status);
  } catch (error) {
    return internalError("shopper_data", error);
  }
}
