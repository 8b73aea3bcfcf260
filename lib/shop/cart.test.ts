import { describe, expect, it } from "vitest";
import { randomHex32 } from "@/lib/session/session-data";
import { setUpTestDb } from "@/test-support/test-db";
import { addToCart, loadCart, setItemQuantity } from "./cart";
import { buildCartView } from "./cart-view";
import { isCurrency } from "./money";

// The cart is read with one raw statement (findActiveCart); these tests hold it to what the
// database says, read independently with Prisma's model query and priced by the same formula.

const shop = setUpTestDb();

/** The session's open cart as Prisma's model query reads it, priced by buildCartView. */
async function cartByModelQuery(sessionId: string) {
  const cart = await shop.db.cart.findFirst({
    where: { sessionId, checkedOutAt: null },
    orderBy: { createdAt: "desc" },
    include: {
      items: { orderBy: { createdAt: "asc" }, include: { product: { include: { prices: true } } } },
    },
  });
  if (!cart) return null;
  return buildCartView(cart, isCurrency(cart.currency) ? cart.currency : "EUR");
}

async function add(
  sessionId: string,
  product: "phone" | "buds",
  quantity: number,
  currency: "EUR" | "GBP" = "EUR",
) {
  const result = await addToCart({
    sessionId,
    currency,
    productId: shop.products[product].id,
    quantity,
  });
  expect(result).toEqual({ ok: true });
}

describe("reading the open cart", () => {
  it("is null for a session without a cart", async () => {
    expect(await loadCart(randomHex32())).toBeNull();
  });

  it("has the lines in the order they were added, priced in the cart's currency", async () => {
    for (const currency of ["EUR", "GBP"] as const) {
      const sessionId = randomHex32();
      await add(sessionId, "buds", 2, currency);
      await add(sessionId, "phone", 1, currency);
      await add(sessionId, "buds", 1, currency);
      const cart = await loadCart(sessionId);
      expect(cart?.currency).toBe(currency);
      expect(cart?.lines.map((l) => [l.slug, l.quantity])).toEqual([
        ["buds", 3],
        ["phone", 1],
      ]);
      expect(cart?.count).toBe(4);
      expect(cart).toEqual(await cartByModelQuery(sessionId));
    }
  });

  it("is the empty cart once every line is removed", async () => {
    const sessionId = randomHex32();
    await add(sessionId, "phone", 1);
    const line = (await loadCart(sessionId))?.lines[0];
    expect(await setItemQuantity(sessionId, line?.id ?? "", 0)).toEqual({ ok: true });
    const cart = await loadCart(sessionId);
    expect(cart?.lines).toEqual([]);
    expect(cart?.amounts.total).toBe(0);
    expect(cart).toEqual(await cartByModelQuery(sessionId));
  });

  it("is the newest cart not checked out, never another session's", async () => {
    const sessionId = randomHex32();
    await add(sessionId, "phone", 1);
    await shop.db.cart.updateMany({ where: { sessionId }, data: { checkedOutAt: new Date() } });
    expect(await loadCart(sessionId)).toBeNull();
    await add(sessionId, "buds", 5);
    const other = randomHex32();
    await add(other, "phone", 2);
    const cart = await loadCart(sessionId);
    expect(cart?.lines.map((l) => [l.slug, l.quantity])).toEqual([["buds", 5]]);
    expect(cart).toEqual(await cartByModelQuery(sessionId));
    expect(await loadCart(other)).toEqual(await cartByModelQuery(other));
  });

  it("fails loudly, as the formula does, when a product has no price in the cart's currency", async () => {
    const sessionId = randomHex32();
    await add(sessionId, "phone", 1, "GBP");
    await shop.db.productPrice.delete({
      where: { productId_currency: { productId: shop.products.phone.id, currency: "GBP" } },
    });
    try {
      await expect(loadCart(sessionId)).rejects.toThrow("has no GBP price");
    } finally {
      await shop.db.productPrice.create({
        data: { productId: shop.products.phone.id, currency: "GBP", price: 58250, tax: 11650 },
      });
    }
  });
});
