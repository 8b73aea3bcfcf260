// How the browser SDK is built, in one place: the emulator's start (src/assets/build-sdk.ts) and
// the packed tool's build (scripts/build.mjs) must serve byte-identical bundles.
export const SDK_BUILD_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  write: false,
  legalComments: "none",
  logLevel: "silent",
};
