import { checkoutBodySchema } from "@mini/lib/adapter/checkout-input";
import { readSessionJson } from "@mini/lib/adapter/route-input";
import { serviceClient, servicePayDeps } from "@mini/lib/adapter/service";
import {
  internalError,
  saveServiceCheckout,
  serviceCheckoutResponse,
  sessionHash,
} from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await readSessionJson(request, checkoutBodySchema);
    if (!input.ok) return input.response;
    const { session, data: details } = input;
    const saved = await saveServiceCheckout(
      { ...servicePayDeps(), client: serviceClient() },
      {
        sessionId: session.sessionId,
        sessionHash: sessionHash(session.sessionId, session.salt),
        customerId: session.customerId ?? null,
        details,
      },
    );
    return serviceCheckoutResponse(saved);
  } catch (error) {
    return internalError("checkout", error);
  }
}
