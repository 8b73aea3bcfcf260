import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // `npm run demo` builds and serves its own folder (scripts/demo.mjs sets SHOP_DIST_DIR), so the
  // browser suites' test build in `.next` and a benchmark's build never replace the running
  // demo's, nor the demo's build theirs.
  distDir: process.env.SHOP_DIST_DIR === ".next-demo" ? ".next-demo" : ".next",
  // The emulator lives in the same repository but is the other party: never bundle it.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
  ],
  allowedDevOrigins: ["127.0.0.1"],
  // Inlined at build time: only a build made for the browser suite has the shop's test clock
  // (lib/service-adapter/shop-clock.ts); a production build cannot be given one at run time.
  env: { SHOP_TEST_CLOCK: process.env.SHOP_TEST_CLOCK === "1" ? "1" : "" },
  poweredByHeader: false,
  experimental: {
    // Bodies are bounded (lib/http/body-limit.ts: 64 KB). A Server Action body past this is
    // refused with 413 while streaming; the proxy buffers a little more than that so a route's
    // own bounded reader still sees the excess and answers 413 rather than read a cut body.
    serverActions: { bodySizeLimit: "64kb" },
    proxyClientMaxBodySize: "128kb",
  },
};

export default nextConfig;
