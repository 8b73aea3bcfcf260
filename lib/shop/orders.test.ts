import { describe, expect, it } from "vitest";
import { randomHex32 } from "@/lib/session/session-data";
import { cardCheckoutInput, TEST_ADDRESS } from "@/test-support/checkout";
import { setUpTestDb } from "@/test-support/test-db";
import { orderWriter, withHistory } from "@/test-support/test-shop";
import {
  addToCart,
  applyPromotionCode,
  loadCart,
  pageCartCount,
  setCartCurrency,
  setItemQuantity,
} from "./cart";
import { changeOrderStatus, createOrderFromCart, type OrderWriter, placeCardOrder } from "./orders";
import { TEST_CARDS } from "./test-card";

const shop = setUpTestDb();

const input = (card: string) => cardCheckoutInput(card, { ...TEST_ADDRESS, city: "Cork" });

/** A guest's card checkout of the session's cart. */
const placeCard = (sessionId: string, card: string) =>
  placeCardOrder(orderWriter(shop.db), {
    sessionId,
    customerId: null,
    input: input(card),
    shopBaseUrl: "http://shop.test",
  });

async function cartWith(quantity = 2) {
  const sessionId = randomHex32();
  const added = await addToCart({
    sessionId,
    currency: "EUR",
    productId: shop.products.phone.id,
    quantity,
  });
  expect(added).toEqual({ ok: true });
  return sessionId;
}

describe("cart in the database", () => {
  it("adds, merges, caps, changes currency and removes lines", async () => {
    const sessionId = await cartWith(2);
    await addToCart({ sessionId, currency: "EUR", productId: shop.products.phone.id, quantity: 3 });
    let cart = await loadCart(sessionId);
    expect(cart?.lines).toHaveLength(1);
    expect(cart?.lines[0]?.quantity).toBe(5);
    expect(cart?.amounts.total).toBe(5 * (66033 + 13867));

    const tooMany = await addToCart({
      sessionId,
      currency: "EUR",
      productId: shop.products.phone.id,
      quantity: 6,
    });
    expect(tooMany.ok).toBe(false);
    const unknown = await addToCart({ sessionId, currency: "EUR", productId: "nope", quantity: 1 });
    expect(unknown.ok).toBe(false);

    await setCartCurrency(sessionId, "GBP");
    cart = await loadCart(sessionId);
    expect(cart?.currency).toBe("GBP");
    expect(cart?.amounts.total).toBe(5 * (58250 + 11650));

    const line = cart?.lines[0]?.id ?? "";
    expect(await setItemQuantity(randomHex32(), line, 1)).toMatchObject({ ok: false });
    await setItemQuantity(sessionId, line, 0);
    expect((await loadCart(sessionId))?.lines).toEqual([]);
  });
});

describe("the header's cart count", () => {
  it("is the open cart's count: none, several lines, and none once the cart is checked out", async () => {
    const sessionId = randomHex32();
    expect(await pageCartCount(sessionId)).toBe(0);
    await addToCart({ sessionId, currency: "EUR", productId: shop.products.phone.id, quantity: 3 });
    await addToCart({ sessionId, currency: "EUR", productId: shop.products.buds.id, quantity: 2 });
    expect(await pageCartCount(sessionId)).toBe(5);
    expect(await pageCartCount(sessionId)).toBe((await loadCart(sessionId))?.count);
    // Another session's cart is not counted.
    expect(await pageCartCount(randomHex32())).toBe(0);
    const placed = await placeCard(sessionId, TEST_CARDS.success);
    expect(placed.ok).toBe(true);
    expect(await pageCartCount(sessionId)).toBe(0);
  });
});

describe("placing an order", () => {
  it("moves the cart to a paid order with items, addresses and history, once", async () => {
    const sessionId = await cartWith(2);
    const result = await placeCard(sessionId, TEST_CARDS.success);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({
        where: { id: result.orderId },
        include: { items: true, shippingAddress: true },
      }),
    );
    expect(order.status).toBe("payment_completed");
    expect(order.price).toBe(2 * 66033);
    expect(order.tax).toBe(2 * 13867);
    expect(order.shippingPrice).toBe(1499);
    expect(order.total).toBe(2 * (66033 + 13867) + 1499);
    expect(order.items[0]).toMatchObject({
      quantity: 2,
      total: 2 * (66033 + 13867),
      url: "http://shop.test/products/phone",
    });
    expect(order.shippingAddress.city).toBe("Cork");
    expect(order.history.map((h) => [h.from, h.to])).toEqual([
      [null, "pending"],
      ["pending", "payment_completed"],
    ]);
    expect(await loadCart(sessionId)).toBeNull();

    // The same cart cannot become a second order.
    const again = await placeCard(sessionId, TEST_CARDS.success);
    expect(again).toEqual({ ok: false, error: "Your cart is empty.", emptyCart: true });
  });

  it("a declined card writes nothing and keeps the cart", async () => {
    const sessionId = await cartWith(1);
    const before = await shop.db.order.count();
    const result = await placeCard(sessionId, TEST_CARDS.declined);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("declined") });
    expect(await shop.db.order.count()).toBe(before);
    expect((await loadCart(sessionId))?.lines).toHaveLength(1);
  });

  it("a failure inside the transaction leaves the cart open and no order behind", async () => {
    const sessionId = await cartWith(1);
    const orders = await shop.db.order.count();
    const addresses = await shop.db.address.count();
    await expect(
      shop.db.$transaction(async (tx) => {
        await createOrderFromCart(tx, orderWriter(shop.db), {
          sessionId,
          customerId: null,
          input: input(TEST_CARDS.success),
          shopBaseUrl: "http://shop.test",
          status: "pending",
        });
        throw new Error("payment provider exploded");
      }),
    ).rejects.toThrow("exploded");
    expect(await shop.db.order.count()).toBe(orders);
    expect(await shop.db.address.count()).toBe(addresses);
    expect((await loadCart(sessionId))?.lines).toHaveLength(1);
  });

  async function paidCardOrder(): Promise<string> {
    const placed = await placeCard(await cartWith(1), TEST_CARDS.success);
    if (!placed.ok) throw new Error(placed.error);
    return placed.orderId;
  }

  it("the back office cannot mark a pending Service Pay order paid by hand", async () => {
    const orderId = await paidCardOrder();
    await shop.db.order.update({
      where: { id: orderId },
      data: { status: "pending", paymentMethod: "service_pay" },
    });
    expect(
      await changeOrderStatus(orderWriter(shop.db), {
        orderId,
        to: "payment_completed",
        source: "admin",
      }),
    ).toMatchObject({ ok: false, error: expect.stringContaining("payment notification") });
    expect((await shop.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe(
      "pending",
    );
    // The service's own notification still can.
    expect(
      await changeOrderStatus(orderWriter(shop.db), {
        orderId,
        to: "payment_completed",
        source: "service",
      }),
    ).toEqual({ ok: true });
  });

  it("status changes follow the transitions unless forced by the service", async () => {
    const orderId = await paidCardOrder();
    expect(
      await changeOrderStatus(orderWriter(shop.db), { orderId, to: "pending", source: "admin" }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      await changeOrderStatus(orderWriter(shop.db), { orderId, to: "shipped", source: "admin" }),
    ).toEqual({
      ok: true,
    });
    expect(
      await changeOrderStatus(orderWriter(shop.db), { orderId, to: "on_hold", source: "admin" }),
    ).toMatchObject({
      ok: false,
    });
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: orderId } }),
    );
    expect(order.status).toBe("shipped");
    expect(order.history).toHaveLength(3);
    expect(
      await changeOrderStatus(orderWriter(shop.db), {
        orderId: "missing",
        to: "shipped",
        source: "admin",
      }),
    ).toMatchObject({ ok: false });
  });
});

describe("the order history's writer", () => {
  /** The integration's writer, each call named as it is made. */
  function recordingWriter() {
    const calls: string[] = [];
    const inner = orderWriter(shop.db);
    const writer: OrderWriter = {
      writeOrderChange: (tx, order, change) => {
        calls.push(`change ${order.status}->${change.to ?? order.status}`);
        return inner.writeOrderChange(tx, order, change);
      },
      recordNewOrder: (tx, order, source, note) => {
        calls.push(`new ${order.status}`);
        return inner.recordNewOrder(tx, order, source, note);
      },
      lockOrders: (tx, keys) => {
        calls.push(`lock ${keys.id}`);
        return inner.lockOrders(tx, keys);
      },
    };
    return { calls, writer };
  }

  it("is the one given: every line of a card order and of a back-office change goes through it", async () => {
    await shop.db.promotionCode.create({
      data: { code: "WRITER10", name: "10 % off", kind: "percent", percent: 10 },
    });
    const sessionId = await cartWith(1);
    expect(await applyPromotionCode(sessionId, "WRITER10")).toEqual({ ok: true });
    const { calls, writer } = recordingWriter();
    const placed = await placeCardOrder(writer, {
      sessionId,
      customerId: null,
      input: input(TEST_CARDS.success),
      shopBaseUrl: "http://shop.test",
    });
    if (!placed.ok) throw new Error(placed.error);
    expect(
      await changeOrderStatus(writer, { orderId: placed.orderId, to: "shipped", source: "admin" }),
    ).toEqual({ ok: true });
    expect(calls).toEqual([
      "new pending",
      "change pending->pending",
      "change pending->payment_completed",
      `lock ${placed.orderId}`,
      "change payment_completed->shipped",
    ]);
    const order = await withHistory(
      shop.db,
      await shop.db.order.findUniqueOrThrow({ where: { id: placed.orderId } }),
    );
    // Lines of one transaction may share a timestamp: compared whatever their order.
    const lines = order.history.map(({ from, to, source }) => `${from}->${to} ${source}`);
    expect(lines.sort()).toEqual([
      "null->pending shop",
      "payment_completed->shipped admin",
      "pending->payment_completed shop",
      "pending->pending shop",
    ]);
    expect(
      order.history.find((line) => line.from === "pending" && line.to === "pending")?.note,
    ).toMatch(/^Promotion code: WRITER10 \(10 % off\) −/);
  });
});
