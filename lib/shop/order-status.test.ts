import { describe, expect, it } from "vitest";
import {
  canReach,
  canTransition,
  isFinal,
  isOrderStatus,
  nextStatuses,
  ORDER_STATUSES,
  statusLabel,
} from "./order-status";

describe("order status transitions", () => {
  it("covers the contract's statuses", () => {
    for (const status of ["pending", "payment_completed", "completed"]) {
      expect(isOrderStatus(status)).toBe(true);
    }
  });

  it("follows the happy path of a paid order", () => {
    expect(canTransition("pending", "payment_completed")).toBe(true);
    expect(canTransition("payment_completed", "shipped")).toBe(true);
    expect(canTransition("shipped", "completed")).toBe(true);
    expect(canTransition("completed", "returned")).toBe(true);
  });

  it("refuses skipping payment, leaving final states and unknown values", () => {
    expect(canTransition("pending", "shipped")).toBe(false);
    expect(canTransition("cancelled", "pending")).toBe(false);
    expect(canTransition("returned", "completed")).toBe(false);
    expect(canTransition("pending", "teleported")).toBe(false);
    expect(canTransition("teleported", "pending")).toBe(false);
    expect(canTransition("pending", "pending")).toBe(false);
  });

  it("every target is a known status and final states have no exit", () => {
    for (const status of ORDER_STATUSES) {
      for (const next of nextStatuses(status)) expect(isOrderStatus(next)).toBe(true);
    }
    expect(isFinal("cancelled")).toBe(true);
    expect(isFinal("returned")).toBe(true);
    expect(isFinal("pending")).toBe(false);
  });

  it("shows an unknown status verbatim", () => {
    expect(statusLabel("payment_completed")).toBe("Paid");
    expect(statusLabel("on_hold")).toBe("Unknown (on_hold)");
  });
});

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
