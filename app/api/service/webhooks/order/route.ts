import { receiveOrderWebhook } from "@/lib/service/order-webhook";
import { internalError, json } from "@/lib/service/route-responses";
import { SIGNATURE_HEADER } from "@/lib/service/webhook-signature";
import { getWebhookSecretSource, servicePayDeps } from "@/lib/service-adapter/service";

// POST {merchant_webhook_base}/order (contract: Events › Webhook, Authentication 5). Public: no
// authentication but the signature (Merchant endpoints, rule 2), so the session proxy's cookie
// is irrelevant here. Success is exactly 200.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    // The raw bytes, read once: the signature is over them, never over re-serialised JSON.
    const raw = new Uint8Array(await request.arrayBuffer());
    const result = await receiveOrderWebhook(raw, request.headers.get(SIGNATURE_HEADER), {
      ...servicePayDeps(),
      secret: getWebhookSecretSource(),
      log: (message, error) => console.error(`[order webhook] ${message}`, error),
    });
    return json(result.body, result.status);
  } catch (error) {
    // Not 200: the service retries, and the unique key makes the retry safe.
    return internalError("order webhook", error);
  }
}
