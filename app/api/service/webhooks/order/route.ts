import {
  errorJson,
  internalError,
  json,
  readBodyAtMost,
  receiveOrderWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_BODY_LIMIT,
} from "@service-integration/kit/server";
import {
  getNotificationInbox,
  getWebhookSecretSource,
  servicePayDeps,
} from "@/lib/service-adapter/service";

// POST {merchant_webhook_base}/order (contract: Events › Webhook, Authentication 5). Public: no
// authentication but the signature (Merchant endpoints, rule 2), so the session proxy's cookie
// is irrelevant here. Success is exactly 200, once the notification is durably stored; it is
// applied right after (store-then-apply, docs/decisions/webhook-storage.md), an apply the kit
// hands to Next's after() so a serverless host lets it finish before freezing the function.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    // The raw bytes, read once and at most 64 KB: the signature is over them, never over
    // re-serialised JSON. Not 200 beyond the limit: a body that large is no notification.
    const raw = await readBodyAtMost(request, WEBHOOK_BODY_LIMIT);
    if (!raw) {
      return errorJson(413, "payload_too_large", "The body is larger than 64 KB.");
    }
    const result = await receiveOrderWebhook(raw, request.headers.get(SIGNATURE_HEADER), {
      ...servicePayDeps(),
      secret: getWebhookSecretSource(),
      inbox: getNotificationInbox(),
      log: (message, error) => console.error(`[order webhook] ${message}`, error),
    });
    return json(result.body, result.status);
  } catch (error) {
    // Not 200: the service retries, and the unique key makes the retry safe.
    return internalError("order webhook", error);
  }
}
