// The payment window of the kit's test shops: what the shop's checkout page and the SDK do
// before the kit makes a pending order.
import { purchaseDataOfSession } from "../callbacks.js";
import type { Cart } from "../cart.js";
import type { CheckoutDetails, ServicePayStore, ShopperSource } from "../shop-ports.js";

/**
 * The payment window opens for a session's open cart, as in the shop: its details are kept
 * (payment start) unless they already are, then purchase_data answers while the payment is open,
 * which records what the service is asked to collect (callbacks.ts). The kit makes a pending
 * order only after it (pending-order.ts). Gives the Cart purchase_data showed.
 */
export async function openPaymentWindow(
  ports: { servicePay: ServicePayStore; shopper: ShopperSource },
  cart: { sessionId: string; details: CheckoutDetails },
  shopBaseUrl: string,
): Promise<Cart | null> {
  const { sessionId, details } = cart;
  await ports.servicePay.transaction(async (tx) => {
    const cartId = await tx.openCartId(sessionId);
    if (cartId && !(await tx.loadCheckout(cartId))) {
      await tx.saveCheckout({ cartId, sessionId, customerId: null, details });
    }
  });
  const shown = await purchaseDataOfSession(
    ports.shopper,
    { sessionId, salt: "test-shop" },
    shopBaseUrl,
  );
  return shown.purchase?.cart ?? null;
}
