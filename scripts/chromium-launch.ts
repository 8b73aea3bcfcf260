import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

// How every browser test here launches Chromium (both Playwright configs and the emulator's
// inspector test): CHROMIUM_PATH, else Debian's headless shell, else Debian's full Chromium
// (scripts/ensure-browser.mjs installs one), without a sandbox or
// GPU, and without the background traffic that would make runs differ. Neutral tooling outside
// lib/ and app/, so the emulator may import it without importing storefront code.
export const CHROMIUM_LAUNCH_OPTIONS: LaunchOptions = {
  executablePath:
    process.env.CHROMIUM_PATH ??
    (existsSync("/usr/bin/chromium-headless-shell")
      ? "/usr/bin/chromium-headless-shell"
      : "/usr/bin/chromium"),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
