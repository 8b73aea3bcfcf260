import { describe, expect, it } from "vitest";
import { ServiceApiError } from "./errors.js";
import { checkTradeIn, tradeInProblemFromError } from "./trade-in.js";

const now = new Date("2026-01-01T12:00:00.000Z");
const accepted = { id: "t1", status: "accepted", valid_until: "2026-01-02T12:00:00.000Z" };

describe("checkTradeIn", () => {
  it("accepts an accepted trade-in before valid_until", () => {
    expect(checkTradeIn(accepted, now)).toEqual({
      usable: true,
      item: accepted,
      validUntil: new Date(accepted.valid_until),
    });
  });

  it("accepts it at valid_until exactly: expired means now is after valid_until", () => {
    const atTheEnd = { ...accepted, valid_until: now.toISOString() };
    expect(checkTradeIn(atTheEnd, now)).toMatchObject({ usable: true });
  });

  it.each([
    ["missing", null, "missing"],
    ["not accepted", { ...accepted, status: "offered" }, "not_accepted"],
    ["status absent", { id: "t1", valid_until: accepted.valid_until }, "not_accepted"],
    [
      "one millisecond after valid_until",
      { ...accepted, valid_until: new Date(now.getTime() - 1).toISOString() },
      "expired",
    ],
    ["after valid_until", { ...accepted, valid_until: "2025-12-31T00:00:00Z" }, "expired"],
    ["unreadable valid_until", { ...accepted, valid_until: "tomorrow" }, "expired"],
    ["no valid_until", { id: "t1", status: "accepted" }, "expired"],
  ])("%s → %s", (_label, item, problem) => {
    const result = checkTradeIn(item, now);
    expect(result).toMatchObject({ usable: false, problem });
    if (!result.usable) expect(result.message).toMatch(/trade-in/i);
  });
});

describe("tradeInProblemFromError", () => {
  const api = (status: number) => new ServiceApiError({ status, method: "GET", path: "/p/" });
  it("maps 404 to unknown and 410 to expired, and nothing else", () => {
    expect(tradeInProblemFromError(api(404))).toBe("unknown");
    expect(tradeInProblemFromError(api(410))).toBe("expired");
    expect(tradeInProblemFromError(api(500))).toBeUndefined();
    expect(tradeInProblemFromError(new Error("x"))).toBeUndefined();
  });
});
