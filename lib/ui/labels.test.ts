import { describe, expect, it } from "vitest";
import { statusLabel } from "@/lib/shop/order-status";
import { historySentence, localDateTime, paymentLabel, tradeInSummary } from "./labels";

describe("back-office labels", () => {
  it("turns history rows into sentences, keeping the notification's event, not its key", () => {
    expect(
      historySentence(
        {
          from: "pending",
          to: "payment_completed",
          source: "service",
          note: "Service notification order:ord_1:cart:c_9:status:payment_completed (order.payment_completed)",
        },
        statusLabel,
      ),
    ).toBe(
      "The service changed the status from Pending payment to Paid: notification order.payment_completed received.",
    );
    expect(
      historySentence(
        { from: null, to: "pending", source: "shop", note: "Order placed" },
        statusLabel,
      ),
    ).toBe("The shop set the status to Pending payment: Order placed.");
    expect(
      historySentence({ from: "paid", to: "paid", source: "admin", note: "" }, (s) =>
        s.toUpperCase(),
      ),
    ).toBe("The back office kept the status PAID.");
    expect(
      historySentence(
        {
          from: "pending",
          to: "payment_completed",
          source: "service",
          note: "Service notification cart:c_1:status:x (reconciliation)",
        },
        statusLabel,
      ),
    ).toContain("found by reconciliation with the service");
  });

  it("names payments, trade-ins and dates in plain words", () => {
    expect(paymentLabel("service_pay")).toBe("Service Pay");
    expect(paymentLabel("card")).toBe("Card");
    expect(paymentLabel("other")).toBe("other");
    const order = { paymentMethod: "service_pay", tradeInStatus: null, currency: "EUR" };
    expect(tradeInSummary({ ...order, tradeInDiscount: 42000 })).toBe("−€420.00 off the payment");
    expect(
      tradeInSummary({
        ...order,
        paymentMethod: "card",
        tradeInStatus: "registered",
        tradeInDiscount: 0,
      }),
    ).toBe("Registered");
    expect(tradeInSummary({ ...order, paymentMethod: "card", tradeInDiscount: 0 })).toBe("");
    expect(localDateTime(new Date("2026-07-01T12:00:00Z"))).toBe("1 Jul 2026, 13:00");
  });
});
