// The minimal shop's tests as an integrator runs them, with the kit installed from its tarball
// (scripts/minimal-shop.mjs runs the conformance test so): the kit's Vitest settings for its
// conformance suite (server-only, the packages transformed by Vitest), and this shop's alias.
import path from "node:path";
import { conformanceVitestConfig } from "@service-integration/kit/testing/config";
import { defineConfig, mergeConfig } from "vitest/config";

export default defineConfig(
  mergeConfig(conformanceVitestConfig(), {
    resolve: { alias: { "@mini": path.resolve(import.meta.dirname) } },
    test: { environment: "node" },
  }),
);
