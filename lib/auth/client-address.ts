import { isIPv4, isIPv6 } from "node:net";
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

/**
 * The unit the login throttle counts an address by: an IPv4 address as it is, an IPv6 address by
 * its /64 (the first four groups, written in full), since one subscriber is given a whole /64 and
 * could otherwise make up 2^64 addresses of its own. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`) is its IPv4 address. Anything else (`unknown`, a name) is kept as it is.
 */
export function addressGroup(address: string): string {
  const text =
    address
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .split("%")[0] ?? "";
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  // An embedded IPv4 tail stands for the last two groups, which a /64 never reads.
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? left
      : [
          ...left,
          ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"),
          ...right,
        ];
  return `${groups
    .slice(0, 4)
    .map((group) => group.padStart(4, "0"))
    .join(":")}::/64`;
}
