import { describe, expect, it } from "vitest";
import {
  cardTradeInDisagreements,
  centsFromText,
  plainPurchaseDisagreements,
  servicePayDisagreements,
} from "./compare";

describe("centsFromText", () => {
  it.each([
    ["€1,234.56", 123456],
    ["1.234,56 €", 123456],
    ["To pay: €543.20 (delivery included)", 54320],
    ["EUR 420", 42000],
    ["-€120.00", -12000],
    ["− nothing", Number.NaN],
    ["12.5", 1250],
    ["1,234", 123400],
    ["1 234,56\u00a0€", 123456],
    ["€0.07", 7],
  ])("%s → %d cents", (text, cents) => {
    if (Number.isNaN(cents)) expect(() => centsFromText(text)).toThrow(/no amount/);
    else expect(centsFromText(text)).toBe(cents);
  });

  it("refuses a text without an amount, and reads only the first 200 characters", () => {
    expect(() => centsFromText("")).toThrow(/no amount/);
    expect(() => centsFromText(`${"x".repeat(200)}€5.00`)).toThrow(/no amount/);
  });
});

const paidShop = { total: 42320, tradeInDiscount: 12000, paid: true };
const servicePay = {
  shown: {
    amountToPay: 54320,
    offer: 12000,
    confirmationTotal: 42320,
    modal: { cartTotal: 54320, tradeInDiscount: 12000, leftToPay: 42320 },
  },
  service: { order_id: "ord_1", amount: 54320, trade_in_discount: 12000 },
  shop: paidShop,
};

describe("servicePayDisagreements (scenario 1)", () => {
  it("is empty when the shopper, the service and the shop agree", () => {
    expect(servicePayDisagreements(servicePay)).toEqual([]);
  });

  it("names the party that differs", () => {
    expect(servicePayDisagreements({ ...servicePay, shop: { ...paidShop, total: 54320 } })).toEqual(
      ["the confirmation's total (42320) ≠ the shop's stored total (54320)"],
    );
    expect(
      servicePayDisagreements({
        ...servicePay,
        service: { ...servicePay.service, trade_in_discount: 10000 },
      }),
    ).toEqual([
      "the accepted offer (12000) ≠ the service's trade-in discount (10000)",
      "the service's trade-in discount (10000) ≠ the shop's stored trade-in discount (12000)",
    ]);
  });

  it("reports a missing party, an unpaid order and amounts that are not integer cents", () => {
    expect(servicePayDisagreements({ ...servicePay, service: undefined })).toEqual([
      "the service's order amount is missing",
      "the service's trade-in discount is missing",
    ]);
    expect(servicePayDisagreements({ ...servicePay, shop: { ...paidShop, paid: false } })).toEqual([
      "the shop's stored order is not paid",
    ]);
    expect(
      servicePayDisagreements({ ...servicePay, shop: { ...paidShop, total: 423.2 } }),
    ).toContain("the shop's stored total is not integer cents: 423.2");
  });
});

const receipt = { order_id: "M-1", order_amount: 54320, status: 200 };
const card = {
  shown: { amountToPay: 54320, confirmationTotal: 54320 },
  receipts: [receipt],
  shop: { total: 54320, tradeInDiscount: 0, paid: true },
};

describe("cardTradeInDisagreements (scenario 2)", () => {
  it("is empty for one accepted register-purchase of the order's amount", () => {
    expect(cardTradeInDisagreements(card)).toEqual([]);
  });

  it("catches a purchase not registered, registered twice, or with another amount", () => {
    expect(cardTradeInDisagreements({ ...card, receipts: [] })).toEqual([
      "the registered order amount is missing",
      "the service accepted 0 register-purchase calls, not 1",
    ]);
    expect(
      cardTradeInDisagreements({ ...card, receipts: [receipt, { ...receipt, duplicate: true }] }),
    ).toEqual(["a register-purchase was a duplicate"]);
    expect(
      cardTradeInDisagreements({ ...card, receipts: [{ ...receipt, order_amount: 42320 }] }),
    ).toEqual(["the checkout's amount to pay (54320) ≠ the registered order amount (42320)"]);
  });

  it("catches a discount the card path must not take", () => {
    expect(
      cardTradeInDisagreements({ ...card, shop: { ...card.shop, tradeInDiscount: 12000 } }),
    ).toEqual(["no trade-in discount (0) ≠ the shop's stored trade-in discount (12000)"]);
  });
});

describe("plainPurchaseDisagreements (scenario 3)", () => {
  const plain = { ...card, receipts: [] };
  it("is empty when the shop charged the whole amount and told the service nothing", () => {
    expect(plainPurchaseDisagreements(plain)).toEqual([]);
  });

  it("catches a purchase registered without a trade-in", () => {
    expect(plainPurchaseDisagreements({ ...plain, receipts: [receipt] })).toEqual([
      "the shop registered a purchase without a trade-in (1 calls)",
    ]);
  });
});
