// Cart-level discounts (contract: Resources › Cart, Discount) through every amount the parties
// compare: the Cart the SDK and register-purchase read, the paid notification the webhook
// checks, the listing reconciliation reads. One formula (cart.ts totalBeforeTradeIn).
import { describe, expect, it } from "vitest";
import {
  buildCart,
  cartOfLines,
  cartSchema,
  discountSchema,
  orderTotal,
  totalBeforeTradeIn,
} from "./cart.js";
import { ServiceInputError } from "./errors.js";
import { paymentMismatch, planNotification } from "./order-webhook.js";
import { buildPurchaseData } from "./purchase-data.js";
import { collectedMismatch } from "./reconciliation.js";
import { buildRegisterPurchaseBody } from "./register-purchase.js";
import type { OrderStatusRules, ShopOrder } from "./shop-ports.js";
import { contractStatusNames } from "./test-support/status-names.js";

const phone = {
  productId: "p1",
  name: "Phone",
  description: "128 GB",
  url: "/p/1",
  quantity: 2,
  price: 10_000,
  tax: 4_600,
};
const delivery = { id: "standard", name: "Standard", price: 500, url: "/delivery" };
const promo = { id: "promo:SAVE10", name: "SAVE10 (10 %)", total: 2_000 };
/** 2 × 100.00 + 46.00 tax + 5.00 delivery − 20.00 promotion = 231.00 before the trade-in. */
const OWED = 20_000 + 4_600 + 500 - 2_000;

const address = {
  given_name: "Ana",
  family_name: "Ruiz",
  phone: "+34 600 000 000",
  address: "Calle Mayor 1",
  city: "Madrid",
  state: "Madrid",
  country_code: "ES",
  postal_code: "28013",
};

describe("the contract's Discount", () => {
  it("is id, name and total in whole, non-negative cents", () => {
    expect(discountSchema.parse(promo)).toEqual(promo);
    for (const total of [19.99, -1, Number.NaN]) {
      expect(discountSchema.safeParse({ ...promo, total }).success).toBe(false);
    }
    expect(discountSchema.safeParse({ ...promo, id: "" }).success).toBe(false);
    expect(discountSchema.safeParse({ id: "x", name: "x" }).success).toBe(false);
  });
});

describe("a Cart with discounts", () => {
  const cart = cartOfLines({
    id: "c1",
    currency: "EUR",
    items: [phone],
    delivery,
    discounts: [promo],
  });

  it("carries them and a total the contract's formula holds for", () => {
    expect(cart.discounts).toEqual([promo]);
    expect(cart.price).toBe(20_500);
    expect(cart.tax).toBe(4_600);
    expect(cart.total).toBe(cart.price + cart.tax - promo.total);
    expect(cart.total).toBe(OWED);
    expect(cartSchema.safeParse(cart).success).toBe(true);
  });

  it("refuses a total that ignores the discount (the service would charge another amount)", () => {
    const result = cartSchema.safeParse({ ...cart, total: cart.price + cart.tax });
    expect(result.success).toBe(false);
  });

  it("refuses, never clamps, a discount larger than the cart owes", () => {
    const huge = { ...promo, total: 25_101 };
    expect(() =>
      cartOfLines({ id: "c1", currency: "EUR", items: [phone], delivery, discounts: [huge] }),
    ).toThrow(ServiceInputError);
    // Exactly what it owes is still a cart (a free order).
    const free = cartOfLines({
      id: "c1",
      currency: "EUR",
      items: [phone],
      delivery,
      discounts: [{ ...promo, total: 25_100 }],
    });
    expect(free.total).toBe(0);
  });

  it("refuses a decimal discount by name", () => {
    expect(() =>
      buildCart({
        id: "c1",
        currency: "EUR",
        items: [{ ...phone, id: "p1" }],
        discounts: [{ ...promo, total: 10.5 }],
      }),
    ).toThrow(/discounts/);
  });

  it("keeps the discount on an order update's edited cart (cart_update)", () => {
    const edited = cartOfLines(
      { id: "c1", currency: "EUR", items: [phone], delivery, discounts: [promo] },
      { p1: 1 },
    );
    expect(edited.discounts).toEqual([promo]);
    expect(edited.total).toBe(10_000 + 2_300 + 500 - 2_000);
  });
});

describe("purchase_data with a discount", () => {
  it("sends the contract's discounts array and a total that satisfies the formula", () => {
    const cart = cartOfLines({
      id: "c1",
      currency: "EUR",
      items: [phone],
      delivery,
      discounts: [promo],
    });
    const data = buildPurchaseData({
      cart,
      billing: address,
      shipping: { address, method: { id: "standard", name: "Standard", price: 500 } },
      customer: { id: "u1", email: "ana@example.com" },
    });
    const sent = data.purchase?.cart;
    expect(sent?.discounts).toEqual([promo]);
    const sum = (sent?.discounts ?? []).reduce((s, d) => s + d.total, 0);
    expect(sent?.total).toBe((sent?.price ?? 0) + (sent?.tax ?? 0) - sum);
    expect(sent?.total).toBe(OWED);
  });
});

describe("register-purchase with a discount", () => {
  it("sends the discounted Cart and the order's total as order_amount", () => {
    const cart = cartOfLines({
      id: "c1",
      currency: "EUR",
      items: [phone],
      delivery,
      discounts: [promo],
    });
    const body = buildRegisterPurchaseBody({ sessionHash: "h", cart, orderAmount: OWED });
    const decoded = JSON.parse(Buffer.from(body.cart, "base64").toString("utf8"));
    expect(decoded.discounts).toEqual([promo]);
    expect(decoded.total).toBe(OWED);
    expect(body.order_amount).toBe(decoded.total);
  });
});

describe("the payment check with a discount", () => {
  const rules: OrderStatusRules = {
    ...contractStatusNames,
    isKnown: () => true,
    canReach: () => true,
    canTransition: () => true,
    isPaidOrLater: (status) => status === "payment_completed" || status === "completed",
    held: "payment_mismatch",
  };
  const order: ShopOrder = {
    id: "o1",
    number: "SO-1",
    cartId: "c1",
    sessionId: "s1",
    customerId: null,
    status: "pending",
    serviceOrderId: null,
    paymentMethod: "service_pay",
    currency: "EUR",
    price: 20_000,
    tax: 4_600,
    shippingPrice: 500,
    discountTotal: 2_000,
    tradeInDiscount: 0,
    total: OWED,
    tradeInStatus: null,
    tradeInMessage: null,
    valuationState: "none",
    valuationItemId: null,
    valuationValue: null,
    valuationCurrency: null,
    valuationNote: null,
  };
  const paid = (amount: number, tradeInDiscount: number | null = null) => ({
    notificationId: "wh_1",
    dedupeKey: "k1",
    event: "order.payment_completed",
    serviceOrderId: "ord_1",
    cartId: "c1",
    status: "payment_completed",
    amount,
    currency: "EUR",
    tradeInDiscount,
  });

  it("one formula: items + tax + delivery − discounts, then − trade-in", () => {
    expect(totalBeforeTradeIn(order)).toBe(OWED);
    expect(orderTotal({ ...order, tradeInDiscount: 3_000 })).toBe(OWED - 3_000);
  });

  it("counts as paid the amount with the discount taken off", () => {
    expect(paymentMismatch(order, paid(OWED))).toBeNull();
    expect(planNotification(order, "pending", paid(OWED), rules).outcome).toBe("applied");
  });

  it("holds a payment short by the discount's amount (taken off twice)", () => {
    const short = paid(OWED - promo.total);
    expect(paymentMismatch(order, short)).toContain("less discounts of €20.00");
    const plan = planNotification(order, "pending", short, rules);
    expect(plan.outcome).toBe("held");
    expect(plan.change).toMatchObject({ to: "payment_mismatch" });
  });

  it("holds a payment with the discount on top (not taken off)", () => {
    const over = paid(OWED + promo.total);
    expect(paymentMismatch(order, over)).toContain("the order owes €231.00");
    expect(planNotification(order, "pending", over, rules).outcome).toBe("held");
  });

  it("reconciliation compares the service's listing with the discounted amounts", () => {
    expect(collectedMismatch({ order_id: "ord_1", amount: OWED }, order)).toBeNull();
    expect(collectedMismatch({ order_id: "ord_1", amount: OWED + promo.total }, order)).toContain(
      "the shop recorded €231.00",
    );
  });
});
