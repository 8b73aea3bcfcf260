import { checkoutBodySchema } from "@mini/lib/service/checkout";
import { service, sessionJsonRoute } from "@mini/lib/service/wiring";
import {
  saveServiceCheckout,
  serviceCheckoutResponse,
  sessionHash,
} from "@service-integration/kit/server";

export const dynamic = "force-dynamic";

export const POST = sessionJsonRoute("checkout", checkoutBodySchema, async (session, details) => {
  const { sessionId, salt, customerId = null } = session;
  const saved = await saveServiceCheckout(
    { ...service().servicePay, client: service().client },
    { sessionId, sessionHash: sessionHash(sessionId, salt), customerId, details },
  );
  return serviceCheckoutResponse(saved);
});
