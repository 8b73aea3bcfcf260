import {
  internalError,
  saveServiceCheckout,
  serviceCheckoutResponse,
  sessionHash,
} from "@service-integration/kit/server";
import { readSessionJson } from "@/lib/service-adapter/route-input";
import { servicePaymentStartDeps } from "@/lib/service-adapter/service";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";

// POST /api/service/checkout: the checkout page sends the shopper's details when Service Pay is
// chosen, before openPayment(). purchase_data then carries them, and with
// SERVICE_ORDER_CREATION=webhook the order is created from them when the webhook arrives. The
// shop asks the service for the session's accepted valuation here, server side: the paid
// notification's discount must match it (docs/decisions/payment-matching.md).
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await readSessionJson(request, serviceCheckoutSchema);
    if (!input.ok) return input.response;
    const { session, data: details } = input;
    const saved = await saveServiceCheckout(servicePaymentStartDeps(), {
      sessionId: session.sessionId,
      sessionHash: sessionHash(session.sessionId, session.salt),
      customerId: session.customerId ?? null,
      details,
    });
    return serviceCheckoutResponse(saved);
  } catch (error) {
    return internalError("service checkout", error);
  }
}
