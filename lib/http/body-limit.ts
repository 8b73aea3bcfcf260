/**
 * The largest request body any shop page action or route takes (a checkout form is under 4 KB).
 * The proxy refuses a larger declared Content-Length with 413 before anything is read; Next's
 * own Server Action limit (next.config.ts) and the JSON routes' bounded reader stop an undeclared
 * (chunked) one at the same size.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

export function declaresTooLargeBody(headers: Headers, max = MAX_REQUEST_BODY_BYTES): boolean {
  const length = headers.get("content-length");
  if (length === null) return false;
  const bytes = Number(length);
  return !Number.isFinite(bytes) || bytes > max;
}
