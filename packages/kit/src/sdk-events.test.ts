import { describe, expect, it } from "vitest";
import { isServiceSdk } from "./sdk-events.js";

const complete = {
  openValuation() {},
  openPayment() {},
  updatePaymentSelected() {},
  paymentOptionDetailsFor: async () => ({}),
  addReadyToPlaceOrderListener() {},
  hasActiveTradeIn: () => false,
};

describe("isServiceSdk", () => {
  it("accepts an object with every method the contract names", () => {
    expect(isServiceSdk(complete)).toBe(true);
  });

  it("refuses anything else: the SDK is another party's code", () => {
    expect(isServiceSdk(undefined)).toBe(false);
    expect(isServiceSdk(null)).toBe(false);
    expect(isServiceSdk("Service")).toBe(false);
    const { openPayment: _omitted, ...missing } = complete;
    expect(isServiceSdk(missing)).toBe(false);
    expect(isServiceSdk({ ...complete, openPayment: "yes" })).toBe(false);
  });
});
