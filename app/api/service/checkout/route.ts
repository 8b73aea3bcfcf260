import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { readRequestSession } from "@/lib/service/request-session";
import { errorJson, internalError, json, readJsonBody } from "@/lib/service/route-responses";
import { saveServiceCheckout, serviceCheckoutSchema } from "@/lib/shop/service-orders";

// POST /api/service/checkout: the checkout page sends the shopper's details when Service Pay is
// chosen, before openPayment(). purchase_data then carries them, and with
// SERVICE_ORDER_CREATION=webhook the order is created from them when the webhook arrives.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const session = await readRequestSession(request);
    if (!session) return errorJson(401, "unauthorized", "No shop session: reload the page.");
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const details = serviceCheckoutSchema.safeParse(body.value);
    if (!details.success) {
      return errorJson(400, "bad_request", z.prettifyError(details.error));
    }
    const saved = await saveServiceCheckout(getDb(), {
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      details: details.data,
    });
    if (!saved.ok) return errorJson(409, "empty_cart", "Your cart is empty.");
    return json({ cart_id: saved.cartId });
  } catch (error) {
    return internalError("service checkout", error);
  }
}
