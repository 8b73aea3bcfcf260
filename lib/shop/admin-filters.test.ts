import { describe, expect, it } from "vitest";
import { parseOrderFilters } from "./admin-filters";

describe("parseOrderFilters", () => {
  it("reads status, payment, query and an inclusive date range", () => {
    const f = parseOrderFilters({
      status: "pending",
      payment: "card",
      q: " SO-1 ",
      from: "2026-01-02",
      to: "2026-01-02",
    });
    expect(f.status).toBe("pending");
    expect(f.paymentMethod).toBe("card");
    expect(f.query).toBe("SO-1");
    expect(f.from?.toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(f.to?.toISOString()).toBe("2026-01-03T00:00:00.000Z");
  });

  it("ignores malformed values", () => {
    const f = parseOrderFilters({ from: "yesterday", to: "2026-13-45", status: ["a", "b"] });
    expect(f.from).toBeUndefined();
    expect(f.to).toBeUndefined();
    expect(f.status).toBe("a");
  });
});
