import { describe, expect, it } from "vitest";
import { parseOrderNotification, WebhookPayloadError } from "./webhook-payload.js";

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

const flat = {
  id: "ntf_1",
  event: "order.updated",
  order_id: "ord_1",
  cart_id: "cart_1",
  status: "payment_completed",
  amount: 45000,
  currency: "EUR",
  trade_in_discount: 15000,
  customer_id: "cus_1",
};

describe("parseOrderNotification", () => {
  it("reads the flat form", () => {
    expect(parseOrderNotification(bytes(flat))).toEqual({
      dedupeKey: "id:ntf_1:order:ord_1:cart:cart_1",
      notificationId: "ntf_1",
      event: "order.updated",
      serviceOrderId: "ord_1",
      cartId: "cart_1",
      status: "payment_completed",
      amount: 45000,
      currency: "EUR",
      tradeInDiscount: 15000,
      customerId: "cus_1",
      form: "flat",
      body: JSON.stringify(flat),
    });
  });

  it("reads the form with cart_id and status inside data into the same shape", () => {
    const wrapped = {
      id: "ntf_2",
      event: "order.updated",
      order_id: "ord_1",
      data: { cart_id: "cart_1", status: "completed", amount: 45000 },
    };
    expect(parseOrderNotification(bytes(wrapped))).toMatchObject({
      notificationId: "ntf_2",
      serviceOrderId: "ord_1",
      cartId: "cart_1",
      status: "completed",
      amount: 45000,
      form: "data",
    });
  });

  it("keeps an unknown status and extra fields", () => {
    const body = { ...flat, status: "chargeback_opened", shiny: { new: true } };
    const parsed = parseOrderNotification(bytes(body));
    expect(parsed.status).toBe("chargeback_opened");
    expect(JSON.parse(parsed.body).shiny).toEqual({ new: true });
  });

  it("tolerates numeric ids, null optionals and a missing notification id", () => {
    const parsed = parseOrderNotification(
      bytes({ order_id: 42, status: "pending", customer_id: null, currency: null }),
    );
    expect(parsed).toMatchObject({
      serviceOrderId: "42",
      notificationId: null,
      customerId: null,
      dedupeKey: "order:42:cart::status:pending",
    });
  });

  it.each([
    ["not JSON", "{oops"],
    ["not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
    ["no status", { order_id: "o" }],
    ["no order or cart id", { id: "n", status: "pending" }],
    ["a decimal amount", { ...flat, amount: 450.5 }],
    ["a non-string status", { ...flat, status: 3 }],
  ])("refuses %s with WebhookPayloadError", (_label, body) => {
    const raw = body instanceof Uint8Array ? body : bytes(body);
    expect(() => parseOrderNotification(raw)).toThrow(WebhookPayloadError);
  });
});
