import { checkoutBodySchema } from "@mini/lib/service/checkout";
import { readSessionJson, service } from "@mini/lib/service/wiring";
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
    if ("response" in input) return input.response;
    const { session, data: details } = input;
    const saved = await saveServiceCheckout(
      { ...service().servicePay, client: service().client },
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
