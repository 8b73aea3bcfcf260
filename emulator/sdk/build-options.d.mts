// Types of emulator/sdk/build-options.mjs.
import type { BuildOptions } from "esbuild";
export const SDK_BUILD_OPTIONS: BuildOptions & { write: false };
