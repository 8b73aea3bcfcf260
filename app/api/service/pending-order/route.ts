import {
  createServicePendingOrder,
  internalError,
  pendingOrderResponse,
} from "@service-integration/kit/server";
import { readSessionJson } from "@/lib/service-adapter/route-input";
import { servicePayDeps } from "@/lib/service-adapter/service";
import { pendingOrderRequestSchema } from "@/lib/shop/checkout-input";

// POST /api/service/pending-order: called by the checkout page from the SDK's
// addReadyToPlaceOrderListener (contract, Events: "a merchant may instead create a pending order
// on ready-to-place-order ... and let the webhook confirm it"). Idempotent by cart id. With
// SERVICE_ORDER_CREATION=webhook no order is created here (the webhook creates it); the details,
// if sent, are kept for it.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await readSessionJson(request, pendingOrderRequestSchema);
    if (!input.ok) return input.response;
    const { session, data } = input;
    const result = await createServicePendingOrder(servicePayDeps(), {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      ...(data.cartId ? { cartId: data.cartId } : {}),
      ...(data.details ? { details: data.details } : {}),
    });
    return pendingOrderResponse(result);
  } catch (error) {
    return internalError("pending-order", error);
  }
}
