import { service } from "@mini/lib/service/wiring";
import {
  errorJson,
  internalError,
  json,
  readBodyAtMost,
  receiveOrderWebhook,
  SIGNATURE_HEADER,
  WEBHOOK_BODY_LIMIT,
} from "@service-integration/kit/server";

// {merchant_webhook_base}/order: the raw bytes (at most 64 KB) and the signature go to the kit.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const raw = await readBodyAtMost(request, WEBHOOK_BODY_LIMIT);
    if (!raw) return errorJson(413, "payload_too_large", "The body is larger than 64 KB.");
    const result = await receiveOrderWebhook(raw, request.headers.get(SIGNATURE_HEADER), {
      ...service().servicePay,
      secret: service().webhookSecret,
      log: (message, error) => console.error(`[order webhook] ${message}`, error),
    });
    return json(result.body, result.status);
  } catch (error) {
    return internalError("order webhook", error);
  }
}
