import { miniSessionIdentity } from "@mini/lib/adapter/identity";
import { miniShopperSource } from "@mini/lib/adapter/shopper-source";
import { internalError, json, shopperDataFor } from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const result = await shopperDataFor(
      { shop: miniShopperSource, identity: miniSessionIdentity },
      request,
    );
    return json(result.body, result.status);
  } catch (error) {
    return internalError("shopper_data", error);
  }
}
