import "server-only";

/**
 * Request bodies read with a ceiling (contract: Limits; the webhook is public, so anyone can
 * send it anything). The order webhook's bodies are a few hundred bytes; 64 KB leaves room for
 * fields the contract does not show without letting a sender make the shop buffer megabytes.
 */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The body's bytes, or null when it is larger than `limit`: a declared Content-Length over the
 * limit is refused before reading, and a body without one is counted as it streams in and
 * abandoned at the first byte past the limit, so the rest is never buffered.
 */
export async function readBodyAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
