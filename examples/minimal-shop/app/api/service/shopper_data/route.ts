import { identity, service } from "@mini/lib/service/wiring";
import { internalError, json, shopperDataFor } from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const result = await shopperDataFor({ shop: service().adapter.shopper, identity }, request);
    return json(result.body, result.status);
  } catch (error) {
    return internalError("shopper_data", error);
  }
}
