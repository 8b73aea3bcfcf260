import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSdk } from "../../emulator/src/assets/build-sdk";
import { applyMutation, MUTATIONS } from "./mutations";

const SDK = path.resolve(import.meta.dirname, "../../emulator/sdk");

/** A copy of emulator/sdk in a temporary folder, removed after the test. */
const copies: string[] = [];
function sdkCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sdk-mutation-"));
  copies.push(dir);
  cpSync(SDK, dir, { recursive: true });
  return dir;
}
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("SDK mutations", () => {
  it.each(MUTATIONS.map((m) => [m.id, m] as const))(
    "%s applies to a copy of emulator/sdk and still builds",
    async (_id, mutation) => {
      const dir = sdkCopy();
      applyMutation(dir, mutation);
      expect(readFileSync(path.join(dir, mutation.file), "utf8")).toContain(mutation.to);
      // The original is untouched.
      expect(readFileSync(path.join(SDK, mutation.file), "utf8")).toContain(mutation.from);
      const bundle = await buildSdk(path.join(dir, "main.ts"));
      expect(bundle.bytes).toBeGreaterThan(1000);
    },
  );

  it("refuses a mutation that no longer applies", () => {
    const dir = sdkCopy();
    const stale = { ...(MUTATIONS[0] as (typeof MUTATIONS)[0]), from: "no such code" };
    expect(() => applyMutation(dir, stale)).toThrow(/occurs 0 times/);
  });
});
