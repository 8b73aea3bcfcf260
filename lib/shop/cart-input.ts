import { z } from "zod";
import { MAX_QUANTITY } from "./cart";
import { quantityField } from "./quantity";

/** The add-to-cart form (lib/ui/add-to-cart-form.tsx); no quantity field means one. */
export const addToCartInput = z.object({
  productId: z.string().min(1).max(64),
  quantity: quantityField(1, MAX_QUANTITY),
});

/** The cart page's quantity form: 0 removes the line. */
export const cartQuantityInput = z.object({
  itemId: z.string().min(1).max(64),
  quantity: quantityField(0, MAX_QUANTITY),
});
