import type { NextConfig } from "next";

// The shop builds from its own folder and its own node_modules (scripts/example-host.mjs installs
// the kit and the adapter there from their tarballs): this folder is the build's root.
const nextConfig: NextConfig = {
  serverExternalPackages: ["pg"],
  turbopack: { root: import.meta.dirname },
  outputFileTracingRoot: import.meta.dirname,
  poweredByHeader: false,
};

export default nextConfig;
