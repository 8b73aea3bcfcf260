import { identity, service } from "@mini/lib/service/wiring";
import { shopBaseUrl } from "@mini/lib/shop";
import { ServiceInputError } from "@service-integration/kit";
import { errorJson, internalError, json, purchaseDataFor } from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const deps = { shop: service().adapter.shopper, identity };
    return json(await purchaseDataFor(deps, request, shopBaseUrl()));
  } catch (error) {
    if (error instanceof ServiceInputError) return errorJson(400, "bad_request", error.detail);
    return internalError("purchase_data", error);
  }
}
