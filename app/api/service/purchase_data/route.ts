import { ServiceInputError } from "@service-integration/kit";
import { errorJson, internalError, json, purchaseDataFor } from "@service-integration/kit/server";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { shopSessionIdentity } from "@/lib/service-adapter/request-session";
import { createShopperSource } from "@/lib/service-adapter/shopper-source";

// GET {merchant_callbacks_base}/purchase_data (contract: Merchant endpoints, Purchase data):
// built from the live cart on every call, `purchase: null` for an empty cart.
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    return json(
      await purchaseDataFor(
        { shop: createShopperSource(getDb()), identity: shopSessionIdentity },
        request,
        getConfig().SHOP_BASE_URL,
      ),
    );
  } catch (error) {
    // A cart the contract's Cart cannot carry (packages/kit/src/cart.ts): the contract's 400, named.
    if (error instanceof ServiceInputError) {
      return errorJson(
        400,
        "bad_request",
        `This cart cannot be paid with the service: ${error.detail}`,
      );
    }
    return internalError("purchase_data", error);
  }
}
