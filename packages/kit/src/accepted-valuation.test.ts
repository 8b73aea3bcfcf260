import { describe, expect, it } from "vitest";
import { lookupAcceptedValuation, NOT_LOOKED_UP } from "./accepted-valuation.js";
import { planNotification } from "./order-webhook.js";
import type { AcceptedValuation, OrderStatusRules, ShopOrder } from "./shop-ports.js";
import { contractStatusNames } from "./test-support/status-names.js";
import {
  serviceDown,
  serviceHanging,
  serviceWithoutTradeIn,
  serviceWithTradeIn,
  serviceWithValuation,
} from "./test-support/valuation-client.js";

// Contract, Events › Webhook: a notification's trade_in_discount is what the service took off;
// it must be the valuation the shopper accepted (docs/decisions/payment-matching.md). The look-up
// at payment start, then the check a paid notification passes before it may mark the order paid.

describe("lookupAcceptedValuation", () => {
  it("keeps the accepted trade-in's id, value and currency, asking with the session hash", async () => {
    const client = serviceWithValuation(15_000, "EUR");
    expect(await lookupAcceptedValuation({ client }, "hash-1")).toMatchObject({
      valuationState: "known",
      valuationItemId: "tradein_1",
      valuationValue: 15_000,
      valuationCurrency: "EUR",
    });
    expect(client.asked).toEqual(["hash-1"]);
  });

  it("fetches the item when the session names it by id (the public docs' form)", async () => {
    const client = serviceWithTradeIn(
      { id: "t7", status: "accepted", value: 8_000, currency: "EUR" },
      { form: "id" },
    );
    expect(await lookupAcceptedValuation({ client }, "h")).toMatchObject({
      valuationState: "known",
      valuationItemId: "t7",
      valuationValue: 8_000,
    });
    expect(client.asked).toEqual(["h", "item t7"]);
  });

  it("is none without a trade-in, or with one that is not accepted", async () => {
    expect(
      (await lookupAcceptedValuation({ client: serviceWithoutTradeIn() }, "h")).valuationState,
    ).toBe("none");
    const offered = serviceWithTradeIn({ id: "t2", status: "offered", value: 9_000 });
    expect(await lookupAcceptedValuation({ client: offered }, "h")).toMatchObject({
      valuationState: "none",
      valuationValue: null,
      valuationNote: "trade-in t2 is offered",
    });
  });

  it("is unknown when the service shows no value in whole cents", async () => {
    for (const item of [
      { id: "t3", status: "accepted", currency: "EUR" },
      { id: "t3", status: "accepted", value: 150.5, currency: "EUR" },
      { id: "t3", status: "accepted", value: "15000", currency: "EUR" },
      { id: "t3", status: "accepted", value: 15_000 },
    ]) {
      const found = await lookupAcceptedValuation({ client: serviceWithTradeIn(item) }, "h");
      expect(found).toMatchObject({ valuationState: "unknown", valuationValue: null });
      expect(found.valuationNote).toMatch(/no value in whole cents/);
    }
  });

  it("is unknown, never a throw, when the service is down, hangs or is not configured", async () => {
    const down = await lookupAcceptedValuation({ client: serviceDown() }, "h");
    expect(down).toMatchObject({ valuationState: "unknown" });
    expect(down.valuationNote).toMatch(/could not be asked.*ECONNREFUSED/);
    const started = Date.now();
    const hanging = await lookupAcceptedValuation({ client: serviceHanging() }, "h", {
      deadlineMs: 50,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(hanging.valuationNote).toMatch(/no answer within 50 ms/);
    const unconfigured = {
      get client(): never {
        throw new Error("SERVICE_API_BASE_URL is not set");
      },
    };
    expect((await lookupAcceptedValuation(unconfigured, "h")).valuationNote).toMatch(
      /SERVICE_API_BASE_URL/,
    );
  });
});

describe("planNotification: the discount must match the accepted valuation", () => {
  const rules: OrderStatusRules = {
    ...contractStatusNames,
    isKnown: () => true,
    canReach: () => true,
    canTransition: () => true,
    isPaidOrLater: (status) => status === "payment_completed" || status === "completed",
    held: "payment_mismatch",
  };
  /** 100.00 + 23.00 tax + 5.00 delivery: the order's total before the discount is 12800. */
  const order = (valuation: AcceptedValuation): ShopOrder => ({
    id: "o1",
    number: "SO-1",
    cartId: "c1",
    sessionId: "s1",
    customerId: null,
    status: "pending",
    serviceOrderId: null,
    paymentMethod: "service_pay",
    currency: "EUR",
    price: 10_000,
    tax: 2_300,
    shippingPrice: 500,
    discountTotal: 0,
    tradeInDiscount: 0,
    total: 12_800,
    tradeInStatus: null,
    tradeInMessage: null,
    ...valuation,
  });
  const known = (value: number, currency = "EUR"): AcceptedValuation => ({
    valuationState: "known",
    valuationItemId: "tradein_1",
    valuationValue: value,
    valuationCurrency: currency,
    valuationNote: `trade-in tradein_1: ${value} ${currency}`,
  });
  const paid = (tradeInDiscount: number | null) => ({
    notificationId: "wh_1",
    dedupeKey: "k1",
    event: "order.payment_completed",
    serviceOrderId: "ord_1",
    status: "payment_completed",
    // Everything the order owes before the trade-in: items, tax and delivery.
    amount: 12_800,
    currency: "EUR",
    tradeInDiscount,
  });
  const plan = (valuation: AcceptedValuation, discount: number | null) =>
    planNotification(order(valuation), "pending", paid(discount), rules);

  it("pays when the discount equals the accepted value", () => {
    const result = plan(known(5_000), 5_000);
    expect(result.outcome).toBe("applied");
    expect(result.change).toMatchObject({ to: "payment_completed", tradeInDiscount: 5_000 });
    expect(result.change?.note).not.toMatch(/could not be confirmed/);
  });

  it("takes off at most the order's total before the discount", () => {
    expect(plan(known(20_000), 12_800).outcome).toBe("applied");
    expect(plan(known(20_000), 12_300).outcome).toBe("held");
  });

  it("holds, never pays, a discount one cent off, with the reason in the history", () => {
    for (const discount of [4_999, 5_001]) {
      const result = plan(known(5_000), discount);
      expect(result.outcome).toBe("held");
      expect(result.change).toMatchObject({ to: "payment_mismatch" });
      expect(result.change?.tradeInDiscount).toBeUndefined();
      expect(result.change?.note).toContain(
        `trade-in discount €${(discount / 100).toFixed(2)}, the accepted valuation of trade-in tradein_1 allows €50.00`,
      );
    }
    // A notification without the discount does not match a known valuation either.
    expect(plan(known(5_000), null).outcome).toBe("held");
  });

  it("holds a discount for a trade-in valued in another currency", () => {
    const result = plan(known(5_000, "USD"), 5_000);
    expect(result.outcome).toBe("held");
    expect(result.change?.note).toContain("trade-in tradein_1 is in USD, the order in EUR");
  });

  it("holds a discount when the session had no accepted trade-in; no discount then pays", () => {
    const none: AcceptedValuation = {
      ...NOT_LOOKED_UP,
      valuationState: "none",
      valuationNote: "the session has no trade-in",
    };
    const held = plan(none, 1);
    expect(held.outcome).toBe("held");
    expect(held.change?.note).toContain(
      "trade-in discount €0.01, but there was no accepted trade-in when the payment started (the session has no trade-in)",
    );
    expect(plan(none, 0).outcome).toBe("applied");
  });

  it("with the value unknown checks the range only, and the history says so", () => {
    const unknown: AcceptedValuation = {
      ...NOT_LOOKED_UP,
      valuationState: "unknown",
      valuationNote: "the service could not be asked at payment start: ECONNREFUSED",
    };
    const result = plan(unknown, 7_000);
    expect(result.outcome).toBe("applied");
    expect(result.change?.note).toContain(
      "the accepted valuation could not be confirmed (the service could not be asked at payment start: ECONNREFUSED): the trade-in discount was checked against the order total only",
    );
    expect(plan(unknown, 12_801).outcome).toBe("held");
    // Nothing was looked up (details kept before the check existed): the same, and said so.
    expect(plan(NOT_LOOKED_UP, 7_000).change?.note).toMatch(/none was kept/);
  });

  it("takes a discount from a notification that does not mark the order paid only if it matches", () => {
    const pending = (tradeInDiscount: number) => ({ ...paid(tradeInDiscount), status: "pending" });
    const matching = planNotification(order(known(5_000)), "pending", pending(5_000), rules);
    expect(matching.change).toMatchObject({ tradeInDiscount: 5_000 });
    for (const discount of [99_999, 4_999]) {
      const result = planNotification(order(known(5_000)), "pending", pending(discount), rules);
      expect(result.change?.tradeInDiscount, String(discount)).toBeUndefined();
      expect(result.change?.to).toBeUndefined();
      expect(result.change?.note).toContain("its trade-in discount was not taken over");
    }
  });
});
