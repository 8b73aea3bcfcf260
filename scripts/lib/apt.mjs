// Debian packages the scripts need (PostgreSQL, nginx), installed the way ensure-browser.mjs
// installs Chromium: with apt-get, as root, refreshing the package lists only when an install
// fails without them (a fresh CI image has none).
import { spawnSync } from "node:child_process";

export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

export function has(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Installs a Debian package; throws with a readable message when it cannot. */
export function aptInstall(pkg) {
  if (!has("apt-get") || !isRoot) {
    throw new Error(`${pkg} is not installed, and apt-get cannot install it here (not root?)`);
  }
  console.log(`Installing Debian's ${pkg} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    spawnSync("apt-get", ["install", "-y", "--no-install-recommends", pkg], {
      stdio: "inherit",
      env,
    }).status === 0;
  if (install()) return;
  spawnSync("apt-get", ["update"], { stdio: "inherit", env });
  if (!install()) throw new Error(`apt-get could not install ${pkg}`);
}
