import { getConfig } from "@/lib/config";

/**
 * A path on the shop itself to return to after a form post (the login's `next`, the currency
 * switcher's return); anything else falls back to `fallback`.
 *
 * Decided by parsing, never by string prefixes: the WHATWG URL parser is the one the browser
 * uses, so it strips tabs, newlines and leading control characters and turns `\` into `/`
 * exactly as the browser will before it follows the redirect. The value must resolve to the
 * shop's own origin, and the path handed back must not itself start with `//` or `/\` (a
 * browser reads that as another host: `/.//evil.example` resolves to the path `//evil.example`).
 */
export function safeReturnPath(
  value: unknown,
  fallback = "/",
  origin: string = getConfig().SHOP_BASE_URL,
): string {
  if (typeof value !== "string" || value === "" || value.length > 2048) return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin || target.username || target.password) return fallback;
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}
