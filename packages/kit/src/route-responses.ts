import "server-only";
import { randomUUID } from "node:crypto";
import { readBodyAtMost } from "./request-body.js";

/** The largest body the shop's own JSON routes take: a checkout with two full addresses is
 *  under 4 KB; anything past this is refused with 413 before the rest is read. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * JSON answers of the app's service routes. `no-store` everywhere: the callbacks describe one
 * shopper's live session and cart (contract: purchase_data is "called fresh each time"), and a
 * webhook answer must never be cached by anything in between.
 */
export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

/** Contract, Errors: `{ error, error_description }`, the status in the response status. */
export function errorJson(status: number, error: string, description: string): Response {
  return json({ error, error_description: description }, status);
}

/** A 500 whose description carries a correlation id to quote (contract, Errors), also logged
 *  with the error so the two can be matched; nothing about the failure leaks to the caller. */
export function internalError(where: string, error: unknown): Response {
  const correlationId = randomUUID();
  console.error(`[${where}] correlation id ${correlationId}`, error);
  return errorJson(
    500,
    "internal_server_error",
    `Something went wrong on our side (correlation id: ${correlationId}).`,
  );
}

/**
 * The JSON body of a same-origin POST from our own pages. `application/json` is required: a
 * cross-site HTML form cannot send it without a CORS preflight, which these routes never
 * answer, so another site cannot post in the shopper's name with the shopper's cookie.
 */
export async function readJsonBody(request: Request): Promise<
  | {
      /** The body was JSON within the limit. */
      ok: true;
      /** The parsed JSON. */
      value: unknown;
    }
  | {
      /** It was not. */
      ok: false;
      /** The answer to send (415, 413 or 400, the contract's error form). */
      response: Response;
    }
> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    return {
      ok: false,
      response: errorJson(415, "unsupported_media_type", "Send the body as application/json."),
    };
  }
  const body = await readBodyAtMost(request, MAX_JSON_BODY_BYTES);
  if (body === null) {
    return {
      ok: false,
      response: errorJson(
        413,
        "payload_too_large",
        `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`,
      ),
    };
  }
  const text = new TextDecoder().decode(body);
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: errorJson(400, "bad_request", "The body is not valid JSON.") };
  }
}
