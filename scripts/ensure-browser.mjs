// Makes sure Playwright has a Chromium and prints its path; playwright.config.ts and
// scripts/chromium-launch.ts read CHROMIUM_PATH.
//
// The browser tests run headless, so by default this is Debian's `chromium-headless-shell` (the
// headless shell Playwright itself uses for headless runs: about 30 % less CPU than the full
// browser on the same journeys). `ensureBrowser("full")` is the whole browser, for what needs
// one: Lighthouse (npm run bench:pages) drives Chrome's new headless mode, which the shell lacks.
// No test needs the full browser.
//
// CHROMIUM_PATH wins when set; else Debian's binary when present; else Debian's package through
// apt-get when we are root; else Playwright's own download.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const KINDS = {
  "headless-shell": {
    path: "/usr/bin/chromium-headless-shell",
    apt: "chromium-headless-shell",
    playwright: ["chromium", "--only-shell"],
  },
  full: { path: "/usr/bin/chromium", apt: "chromium", playwright: ["chromium", "--no-shell"] },
};

function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** @param {"headless-shell" | "full"} kind */
export function ensureBrowser(kind = "headless-shell") {
  const wanted = kind === "headless-shell" ? process.env.CHROMIUM_PATH : process.env.CHROME_PATH;
  if (wanted) {
    if (!existsSync(wanted)) throw new Error(`${wanted} (from the environment) does not exist`);
    return wanted;
  }
  const debian = KINDS[kind];
  if (existsSync(debian.path)) return debian.path;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (has("apt-get") && root) {
    console.log(`Installing Debian's ${debian.apt} with apt-get…`);
    const install = () =>
      spawnSync("apt-get", ["install", "-y", "--no-install-recommends", debian.apt], {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    // The package lists may be missing or old on a fresh machine: update once, then retry.
    if (install().status !== 0) {
      spawnSync("apt-get", ["update"], { stdio: "inherit" });
      install();
    }
    if (existsSync(debian.path)) return debian.path;
    console.log(`apt-get could not install ${debian.apt}; trying Playwright's download.`);
  }
  const download = spawnSync("npx", ["playwright", "install", ...debian.playwright], {
    stdio: "inherit",
  });
  if (download.status !== 0) throw new Error("Could not install a Chromium for the browser tests");
  const found = spawnSync(
    process.execPath,
    ["-e", "console.log(require('playwright-core').chromium.executablePath())"],
    { encoding: "utf8" },
  );
  return found.stdout.trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureBrowser(process.argv[2] === "--full" ? "full" : "headless-shell"));
}
