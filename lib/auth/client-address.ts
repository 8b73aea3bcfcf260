import { headers } from "next/headers";
import { getConfig } from "@/lib/config";

/**
 * The client's address for login throttling (docs/decisions/client-address.md). Next.js gives a
 * route or action no socket address: `next start` writes it into X-Forwarded-For, but only when
 * the request has no such header (`??=`), so the header is all there is. Each trusted proxy in
 * front of the shop appends the address it saw, so with `hops` trusted proxies the client's
 * address is the entry `hops` from the right (nginx in `demo:cluster`: 1); with none (0, the
 * default) it is the one entry `next start` wrote. Entries further left are whatever the client
 * wrote and are never read. The trade-off of 0: a client reaching `next start` directly that
 * sends the header itself replaces the socket's address, which no public API recovers; run
 * the shop behind a proxy (and say how many) wherever the per-address limit matters.
 */
export function clientAddressFrom(forwardedFor: string | null, hops: number): string {
  const entries = (forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) return "unknown";
  // Fewer entries than trusted hops: the request skipped a proxy; the leftmost is the furthest
  // any trusted party saw.
  const index = Math.max(0, entries.length - Math.max(1, hops));
  return (entries[index] ?? "unknown").slice(0, 64);
}

export async function clientAddress(): Promise<string> {
  return clientAddressFrom(
    (await headers()).get("x-forwarded-for"),
    getConfig().TRUSTED_PROXY_HOPS,
  );
}
