import { z } from "zod";
import { MAX_QUANTITY } from "./cart";
import { quantityField } from "./quantity";
import { wellFormedString } from "./well-formed";

/** The add-to-cart form (lib/ui/add-to-cart-form.tsx); no quantity field means one. */
export const addToCartInput = z.object({
  productId: wellFormedString().min(1).max(64),
  quantity: quantityField(1, MAX_QUANTITY),
});

/** The cart page's quantity form: 0 removes the line. */
export const cartQuantityInput = z.object({
  itemId: wellFormedString().min(1).max(64),
  quantity: quantityField(0, MAX_QUANTITY),
});
