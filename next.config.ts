import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The emulator lives in the same repository but is the other party: never bundle it.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
  ],
  allowedDevOrigins: ["127.0.0.1"],
  poweredByHeader: false,
};

export default nextConfig;
