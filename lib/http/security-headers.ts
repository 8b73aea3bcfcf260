/**
 * The headers every shop page carries. The Content-Security-Policy allows what the shop itself
 * serves plus the service SDK's origin (`{assets_url}`, from configuration: the SDK module is
 * imported from there and calls its own origin), and nothing else: inline scripts need the
 * per-request nonce (Next.js puts it on its own inline scripts) or, on a stored catalog page,
 * must be one of that page's own scripts by hash (lib/http/prerendered-catalog.ts); no plugins,
 * no framing by any site, forms post only to the shop. Styles allow inline: the SDK styles its
 * shadow roots with <style>.
 */
export function contentSecurityPolicy(options: {
  inlineScripts: { nonce: string } | { hashes: readonly string[] };
  sdkOrigin: string;
  development: boolean;
}): string {
  const { inlineScripts, development } = options;
  const inline =
    "nonce" in inlineScripts
      ? ` 'nonce-${inlineScripts.nonce}'`
      : inlineScripts.hashes.map((hash) => ` ${hash}`).join("");
  const sdk = options.sdkOrigin ? ` ${options.sdkOrigin}` : "";
  // `next dev` evaluates modules with eval() and talks to its HMR socket; production does not.
  const devScript = development ? " 'unsafe-eval'" : "";
  const devConnect = development ? " ws: wss:" : "";
  return [
    "default-src 'self'",
    `script-src 'self'${inline}${sdk}${devScript}`,
    `connect-src 'self'${sdk}${devConnect}`,
    "style-src 'self' 'unsafe-inline'",
    // The service's payment icon sits in the shop's own option (contract: SDK markup).
    `img-src 'self' data:${sdk}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** Pages with one person's data: never stored by the browser or anything in between. */
export function isPrivatePath(pathname: string): boolean {
  return /^\/(account|checkout|admin)(\/|$)/.test(pathname);
}

/** The origin of the SDK's address, for the policy: `http://localhost:4010/assets` → its origin. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
