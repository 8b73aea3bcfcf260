// @service-integration/kit/testing/config — for a host's vitest.config.ts: what Vitest needs to
// run the kit's conformance suite (`/testing`) against the kit installed in node_modules. An
// entry of its own because `/testing` imports Vitest's runtime and `server-only`, neither of
// which loads inside a Vitest config file.
import { createRequire } from "node:module";
import path from "node:path";

/** The packages Vitest must transform itself (not hand to Node): the kit and its adapters. */
export const SERVICE_INTEGRATION_PACKAGES = /@service-integration\//;

/** The part of Vitest's configuration the conformance suite needs (a `UserConfig` subset). */
export interface ConformanceVitestConfig {
  /** Module resolution. */
  resolve: {
    /** `server-only` → the absolute path of its empty module. */
    alias: Record<string, string>;
  };
  /** Vitest's own settings. */
  test: {
    /** How Vitest's server treats modules. */
    server: {
      /** Dependencies under node_modules. */
      deps: {
        /** The packages Vitest transforms itself: SERVICE_INTEGRATION_PACKAGES. */
        inline: RegExp[];
      };
    };
  };
}

/**
 * Vitest configuration for a host's tests of the kit (merge it into yours with Vitest's
 * `mergeConfig`, or pass it to `defineConfig` as is):
 *
 * - `server-only` (the marker the kit's server modules import; it throws outside React's server
 *   environment) resolves to its empty module;
 * - `test.server.deps.inline: [/@service-integration\//]`: Vitest hands a package under
 *   node_modules to Node unprocessed, so without it the alias above never reaches the kit's own
 *   `import "server-only"` and the suite fails with "This module cannot be imported from a
 *   Client Component module".
 */
export function conformanceVitestConfig(): ConformanceVitestConfig {
  // server-only's exports name only "." (index.js, or empty.js under react-server): its folder
  // from the default entry, as the kit itself resolves it.
  const serverOnly = createRequire(import.meta.url).resolve("server-only");
  return {
    resolve: { alias: { "server-only": path.join(path.dirname(serverOnly), "empty.js") } },
    test: { server: { deps: { inline: [SERVICE_INTEGRATION_PACKAGES] } } },
  };
}
