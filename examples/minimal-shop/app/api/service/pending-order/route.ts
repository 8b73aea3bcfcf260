import { checkoutBodySchema, pendingOrderBodySchema } from "@mini/lib/service/checkout";
import { service, sessionJsonRoute } from "@mini/lib/service/wiring";
import { createServicePendingOrder, pendingOrderResponse } from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export const POST = sessionJsonRoute(
  "pending-order",
  pendingOrderBodySchema,
  async (session, data) => {
    // Details are optional: without them the ones kept by POST /api/service/checkout are used.
    const details = checkoutBodySchema.safeParse(data);
    const result = await createServicePendingOrder(service().servicePay, {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      ...(data.cart_id ? { cartId: data.cart_id } : {}),
      ...(details.success ? { details: details.data } : {}),
    });
    return pendingOrderResponse(result);
  },
);
