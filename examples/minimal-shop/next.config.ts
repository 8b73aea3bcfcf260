import type { NextConfig } from "next";

// The shop builds from its own folder and its own node_modules (scripts/minimal-shop.mjs installs
// the kit and the Prisma adapter there from their tarballs): this folder is the build's root.
const nextConfig: NextConfig = {
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
  turbopack: { root: import.meta.dirname },
  outputFileTracingRoot: import.meta.dirname,
  poweredByHeader: false,
};

export default nextConfig;
