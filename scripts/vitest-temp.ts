// Every file a test writes to the machine's temp folder goes into one folder of this run,
// removed when the run ends: tests that make a folder for their own files (mkdtemp) leave
// nothing behind, however they end. Workers start after this and read TMPDIR (os.tmpdir()).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup() {
  const run = mkdtempSync(path.join(tmpdir(), "vitest-run-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = run;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(run, { recursive: true, force: true });
  };
}
