import { internalError, json, shopperDataFor } from "@service-integration/kit/server";
import { shopSessionIdentity } from "@/lib/service-adapter/request-session";
import { serviceAdapter } from "@/lib/service-adapter/service";

// GET {merchant_callbacks_base}/shopper_data (contract: Merchant endpoints, Shopper data).
// Same-origin from the SDK: no CORS, no OPTIONS (rule 1).
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const result = await shopperDataFor(
      { shop: serviceAdapter().shopper, identity: shopSessionIdentity },
      request,
    );
    return json(result.body, result.status);
  } catch (error) {
    return internalError("shopper_data", error);
  }
}
