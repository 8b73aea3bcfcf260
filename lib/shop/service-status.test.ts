import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "./order-status";
import { canReach, decideServiceStatus } from "./service-status";

describe("canReach", () => {
  it("follows the shop's transitions transitively and never backwards", () => {
    expect(canReach("pending", "payment_completed")).toBe(true);
    expect(canReach("pending", "completed")).toBe(true);
    expect(canReach("pending", "returned")).toBe(true);
    expect(canReach("payment_completed", "pending")).toBe(false);
    expect(canReach("completed", "payment_completed")).toBe(false);
    expect(canReach("cancelled", "payment_completed")).toBe(false);
    for (const status of ORDER_STATUSES) expect(canReach(status, status)).toBe(false);
  });
});

describe("decideServiceStatus", () => {
  it("applies a status ahead, keeps the same one and records one behind", () => {
    expect(decideServiceStatus("pending", "pending", "payment_completed")).toBe("apply");
    expect(decideServiceStatus("pending", "pending", "completed")).toBe("apply");
    expect(decideServiceStatus("payment_completed", "payment_completed", "payment_completed")).toBe(
      "same",
    );
    expect(decideServiceStatus("payment_completed", "payment_completed", "pending")).toBe("stale");
    expect(decideServiceStatus("completed", "completed", "payment_completed")).toBe("stale");
  });

  it("applies an unknown status, and after one judges known ones by the last known status", () => {
    expect(decideServiceStatus("payment_completed", "payment_completed", "disputed")).toBe("apply");
    expect(decideServiceStatus("disputed", "payment_completed", "disputed")).toBe("same");
    expect(decideServiceStatus("disputed", "payment_completed", "other_unknown")).toBe("apply");
    expect(decideServiceStatus("disputed", "payment_completed", "payment_completed")).toBe("stale");
    expect(decideServiceStatus("disputed", "payment_completed", "pending")).toBe("stale");
    expect(decideServiceStatus("disputed", "payment_completed", "completed")).toBe("apply");
  });
});
