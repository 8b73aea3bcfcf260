import { headers } from "next/headers";

/**
 * The client's address for login throttling. `next start` fills X-Forwarded-For with the
 * socket's address when the request has none; behind a reverse proxy the proxy appends the
 * address it saw, so the last entry is the one a trusted hop wrote. A client talking to the
 * shop directly can send its own header and dodge the per-address count, never the per-account
 * one (docs/decisions/session-identity.md).
 */
export async function clientAddress(): Promise<string> {
  const forwarded = (await headers()).get("x-forwarded-for") ?? "";
  const last = forwarded.split(",").at(-1)?.trim() ?? "";
  return last.slice(0, 64) || "unknown";
}
