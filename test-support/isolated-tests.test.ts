import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ISOLATED_TESTS } from "../vitest.config";

const root = path.resolve(import.meta.dirname, "..");
const FOLDERS = ["lib", "app", "emulator", "scripts", "prisma", "examples", "packages"];
const SKIPPED = new Set(["node_modules", "e2e", ".next", "dist", "minimal-shop"]);

function testFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : testFiles(relative);
    return /\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** What a file does that would reach the next file of its worker when modules are shared. */
const LEAKS =
  /vi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|Object\.assign\(process\.env|(setUpTestShop|createTestShop)\(\{/;

it("every test file that changes the environment or replaces a module runs isolated (vitest.config.ts)", () => {
  const files = FOLDERS.flatMap(testFiles);
  expect(files.length).toBeGreaterThan(100);
  const leaking = files.filter((file) => LEAKS.test(readFileSync(path.join(root, file), "utf8")));
  expect(leaking.filter((file) => !ISOLATED_TESTS.includes(file))).toEqual([]);
  // And the list names only such files, so it does not grow past what needs it.
  expect(ISOLATED_TESTS.filter((file) => !leaking.includes(file))).toEqual([]);
});
