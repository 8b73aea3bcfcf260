import { describe, expect, it } from "vitest";
import { addToCartInput, cartQuantityInput } from "./cart-input";

const HOSTILE = [" 2", "2 ", "0x2", "2e0", "2.0", "+2", "-1", "", "１", "2\n", "Infinity", "011e0"];

describe("cart quantities", () => {
  it("takes plain digits within the bounds", () => {
    expect(addToCartInput.parse({ productId: "p", quantity: "2" }).quantity).toBe(2);
    expect(cartQuantityInput.parse({ itemId: "i", quantity: "0" }).quantity).toBe(0);
    expect(cartQuantityInput.safeParse({ itemId: "i", quantity: "11" }).success).toBe(false);
    expect(addToCartInput.safeParse({ productId: "p", quantity: "0" }).success).toBe(false);
  });

  it.each(HOSTILE)("refuses %j when adding to the cart and when changing a line", (quantity) => {
    expect(addToCartInput.safeParse({ productId: "p", quantity }).success).toBe(false);
    expect(cartQuantityInput.safeParse({ itemId: "i", quantity }).success).toBe(false);
  });

  it("refuses a missing or non-text quantity", () => {
    expect(cartQuantityInput.safeParse({ itemId: "i", quantity: null }).success).toBe(false);
    expect(cartQuantityInput.safeParse({ itemId: "i", quantity: 2 }).success).toBe(false);
  });
});
