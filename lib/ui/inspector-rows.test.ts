import { describe, expect, it } from "vitest";
import { foldPageLoadRepeats } from "./inspector-rows";
import type { Entry } from "./integration-inspector";

const at = (n: number) => `2026-11-22T10:00:0${n}.000Z`;
const sdk = (label: string, n: number): Entry => ({
  id: `e${n}`,
  at: at(n),
  kind: "sdk",
  label,
  ok: true,
});
const callback = (n: number, status: number): Entry => ({
  id: `c${n}`,
  at: at(n),
  kind: "callback",
  label: "GET shopper_data",
  status,
  ok: true,
});

describe("foldPageLoadRepeats", () => {
  it("lists service-ready and shopper_data once, where they last happened, with the count", () => {
    const rows = foldPageLoadRepeats([
      sdk("service-ready", 1),
      callback(2, 200),
      sdk("service-valuation-updated", 3),
      sdk("service-ready", 4),
      callback(5, 200),
      sdk("service-ready", 6),
    ]);
    expect(rows.map((r) => [r.id, r.repeats])).toEqual([
      ["e3", 1],
      ["c5", 2],
      ["e6", 3],
    ]);
  });

  it("keeps every other entry, and a callback with another status apart", () => {
    const rows = foldPageLoadRepeats([
      callback(1, 404),
      callback(2, 200),
      sdk("service-modal-closed", 3),
      sdk("service-modal-closed", 4),
    ]);
    expect(rows.map((r) => [r.id, r.repeats])).toEqual([
      ["c1", 1],
      ["c2", 1],
      ["e3", 1],
      ["e4", 1],
    ]);
  });
});
