import { checkoutBodySchema, pendingOrderBodySchema } from "@mini/lib/service/checkout";
import { readSessionJson, service } from "@mini/lib/service/wiring";
import {
  createServicePendingOrder,
  internalError,
  pendingOrderResponse,
} from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await readSessionJson(request, pendingOrderBodySchema);
    if ("response" in input) return input.response;
    const { session, data } = input;
    // Details are optional: without them the ones kept by POST /api/service/checkout are used.
    const details = checkoutBodySchema.safeParse(data);
    const result = await createServicePendingOrder(service().servicePay, {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      ...(data.cart_id ? { cartId: data.cart_id } : {}),
      ...(details.success ? { details: details.data } : {}),
    });
    return pendingOrderResponse(result);
  } catch (error) {
    return internalError("pending-order", error);
  }
}
