import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { readSessionJson } from "@/lib/service/route-input";
import { errorJson, internalError, json } from "@/lib/service/route-responses";
import { orderCreationMode } from "@/lib/service/service";
import { createServicePendingOrder, pendingOrderRequestSchema } from "@/lib/shop/service-orders";

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
    const result = await createServicePendingOrder(getDb(), {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      ...(data.cartId ? { cartId: data.cartId } : {}),
      ...(data.details ? { details: data.details } : {}),
      shopBaseUrl: getConfig().SHOP_BASE_URL,
      mode: orderCreationMode(),
    });
    if (!result.ok)
      return errorJson(
        result.error === "missing_details" ? 400 : 409,
        result.error,
        result.message,
      );
    return json({
      mode: result.mode,
      created: result.created,
      cart_id: result.cartId,
      order_number: result.number,
    });
  } catch (error) {
    return internalError("pending-order", error);
  }
}
