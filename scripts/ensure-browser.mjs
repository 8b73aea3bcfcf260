// Makes sure Playwright has a Chromium: CHROMIUM_PATH or Debian's /usr/bin/chromium when present;
// else Debian's package through apt-get when we are root; else Playwright's own download.
// Prints the path to use; playwright.config.ts reads CHROMIUM_PATH.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const DEBIAN = "/usr/bin/chromium";

function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

export function ensureBrowser() {
  const wanted = process.env.CHROMIUM_PATH;
  if (wanted) {
    if (!existsSync(wanted)) throw new Error(`CHROMIUM_PATH=${wanted} does not exist`);
    return wanted;
  }
  if (existsSync(DEBIAN)) return DEBIAN;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (has("apt-get") && root) {
    console.log("Installing Debian's chromium with apt-get…");
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (install.status === 0 && existsSync(DEBIAN)) return DEBIAN;
    console.log("apt-get could not install chromium; trying Playwright's download.");
  }
  const download = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
  if (download.status !== 0) throw new Error("Could not install a Chromium for the browser tests");
  // Playwright's own browser: no executablePath needed, but the config defaults to Debian's.
  const found = spawnSync(
    process.execPath,
    ["-e", "console.log(require('playwright-core').chromium.executablePath())"],
    { encoding: "utf8" },
  );
  return found.stdout.trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureBrowser());
}
