/**
 * Server Action requests Next.js would answer with a 500 (and only an error digest) are
 * answered here, in the proxy, with a 4xx in the shop's error form. Next.js 16 itself answers
 * 400 to an action id of the wrong form and 409 to an unknown one, but throws, hence 500, when
 * the body of a known action cannot be decoded or the Origin does not match the host
 * (next/dist/server/app-render/action-handler.js). What a genuine request looks like is what
 * React's `encodeReply` sends for the action's arguments: their JSON array, as the body (plain
 * text) or as the form field "0" of a multipart body. Only the shape is checked; decoding stays
 * Next's. docs/security.md, "Bodies and inputs".
 */

export const ACTION_HEADER = "next-action";

function refuse(status: 400 | 403, error: string, description: string): Response {
  return Response.json(
    { error, error_description: description },
    { status, headers: { "cache-control": "no-store" } },
  );
}

const malformed = () =>
  refuse(400, "bad_request", "The Server Action request's body is not what the page sends.");

/** Values React writes for what JSON has no form for; a literal string starting with "$" is
 *  escaped as "$$…". */
const SPECIAL = new Set(["$undefined", "$NaN", "$Infinity", "$-Infinity", "$-0"]);
const MAX_DEPTH = 32;

/**
 * Whether every "$" reference in the arguments is one the shop's pages send and Next.js can
 * resolve: a FormData (`$K<id>`, multipart only) or a part of the body (`$<id>` or
 * `$<id>:<path>`, the part present). Anything else (promises, maps, sets, blobs, server
 * references, dates, big integers, or a part that is not there) is not what the pages send
 * and would fail to decode inside Next.js.
 */
function plainArguments(value: unknown, parts: (id: string) => boolean, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (typeof value === "string") {
    if (!value.startsWith("$") || value.startsWith("$$") || SPECIAL.has(value)) return true;
    const form = /^\$K([0-9a-f]+)$/.exec(value);
    if (form) return parts("K");
    const part = /^\$([0-9a-f]+)(?::.*)?$/.exec(value);
    return part?.[1] !== undefined && parts(part[1]);
  }
  if (value === null || typeof value !== "object") return true;
  return Object.values(value).every((item) => plainArguments(item, parts, depth + 1));
}

/** The arguments' JSON array with only references the body can back, or false. */
function isArguments(text: unknown, parts: (id: string) => boolean): boolean {
  if (typeof text !== "string") return false;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return false;
  }
  return Array.isArray(root) && plainArguments(root, parts);
}

/** The host the request was sent to, as Next.js compares it with the Origin. */
function requestHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || headers.get("host");
}

/**
 * Null for anything that is not a Server Action call (no `Next-Action` header, not a POST) or
 * one shaped as the page sends it; else the 4xx answer. Reads a clone of the body: the request
 * goes on whole (the proxy holds at most `proxyClientMaxBodySize` of it, next.config.ts).
 */
export async function screenServerAction(request: Request): Promise<Response | null> {
  if (request.method !== "POST" || !request.headers.has(ACTION_HEADER)) return null;

  const origin = request.headers.get("origin");
  if (origin !== null) {
    let originHost: string;
    try {
      originHost = origin === "null" ? "null" : new URL(origin).host;
    } catch {
      return refuse(403, "forbidden", "The Origin header is not a URL.");
    }
    if (originHost !== requestHost(request.headers)) {
      return refuse(403, "forbidden", "A Server Action is only called from the shop's own pages.");
    }
  }

  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  // Next.js answers a URL-encoded action call itself (404): not a body it would decode.
  if (type.startsWith("application/x-www-form-urlencoded")) return null;
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await request.clone().formData();
    } catch {
      return malformed();
    }
    // Part ids are hexadecimal field names ("0" is the root); a FormData's entries are the
    // fields prefixed "_<id>_", and an empty FormData is a form with no fields.
    const parts = (id: string) =>
      id === "K" || id === "0" || form.has(String(Number.parseInt(id, 16)));
    return isArguments(form.get("0"), parts) ? null : malformed();
  }
  let text: string;
  try {
    text = await request.clone().text();
  } catch {
    return malformed();
  }
  // A plain-text body is the root alone: no FormData, no other part.
  return isArguments(text, (id) => id === "0") ? null : malformed();
}
