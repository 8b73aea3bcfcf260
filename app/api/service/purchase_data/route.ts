import { ServiceInputError } from "@service-integration/kit";
import { errorJson, internalError, json, purchaseDataFor } from "@service-integration/kit/server";
import { getConfig } from "@/lib/config";
import { shopSessionIdentity } from "@/lib/service-adapter/request-session";
import { serviceAdapter } from "@/lib/service-adapter/service";

// GET {merchant_callbacks_base}/purchase_data (contract: Merchant endpoints, Purchase data):
// built from the live cart on every call, `purchase: null` for an empty cart.
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    return json(
      await purchaseDataFor(
        { shop: serviceAdapter().shopper, identity: shopSessionIdentity },
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
