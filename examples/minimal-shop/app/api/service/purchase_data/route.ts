import { miniSessionIdentity } from "@mini/lib/adapter/identity";
import { shopBaseUrl } from "@mini/lib/adapter/orders";
import { miniShopperSource } from "@mini/lib/adapter/shopper-source";
import { purchaseDataFor } from "@service/callbacks";
import { ServiceInputError } from "@service/errors";
import { errorJson, internalError, json } from "@service/route-responses";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const deps = { shop: miniShopperSource, identity: miniSessionIdentity };
    return json(await purchaseDataFor(deps, request, shopBaseUrl()));
  } catch (error) {
    if (error instanceof ServiceInputError) return errorJson(400, "bad_request", error.detail);
    return internalError("purchase_data", error);
  }
}
