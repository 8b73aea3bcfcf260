import type { Metadata } from "next";
import { getPageSession } from "@/lib/session/session";
import { loadPageCart } from "@/lib/shop/cart";
import { getCustomer } from "@/lib/shop/customers";
import { DEFAULT_SHIPPING_METHOD, deliveryShown, SHIPPING_METHODS } from "@/lib/shop/shipping";
import { CartSummary } from "@/lib/ui/cart-summary";
import { CheckoutForm } from "@/lib/ui/checkout-form";
import { EmptyCart } from "@/lib/ui/empty-cart";
import { Link } from "@/lib/ui/link";
import { TeaserSlot } from "@/lib/ui/teaser-slot";
import { TotalWithTradeIn } from "@/lib/ui/trade-in-amounts";

export const metadata: Metadata = { title: "Checkout" };

export default async function CheckoutPage() {
  const session = await getPageSession();
  const cart = session.sessionId ? await loadPageCart(session.sessionId) : null;
  if (!cart || cart.lines.length === 0) {
    return (
      <EmptyCart
        heading="Checkout"
        message="Your cart is empty, so there is nothing to check out."
      />
    );
  }
  const customer = session.customerId ? await getCustomer(session.customerId) : null;
  const defaults: Record<string, string> = { country_code: "IE" };
  if (customer) {
    defaults.email = customer.email;
    if (customer.address) {
      for (const [key, value] of Object.entries(customer.address)) {
        if (key !== "id") defaults[`billing_${key}`] = String(value);
      }
    }
  }
  defaults.billing_country_code ??= cart.currency === "GBP" ? "GB" : "IE";
  defaults.shipping_country_code ??= defaults.billing_country_code;
  return (
    <>
      <h1>Checkout</h1>
      {customer ? null : (
        <p>
          Have an account? <Link href="/account/login?next=/checkout">Log in</Link> to use your
          saved address.
        </p>
      )}
      <div className="checkout-layout">
        <CheckoutForm
          currency={cart.currency}
          amounts={cart.amounts}
          defaults={defaults}
          signedIn={Boolean(customer)}
          shippingOptions={SHIPPING_METHODS.map((m) => ({
            id: m.id,
            name: m.name,
            detail: m.detail,
            price: m.price[cart.currency],
          }))}
        />
        <aside aria-label="Your order">
          <CartSummary amounts={cart.amounts} currency={cart.currency} discounts={cart.discounts}>
            <ul className="summary__lines">
              {cart.lines.map((line) => (
                <li key={line.id}>
                  {line.quantity} × {line.name}
                </li>
              ))}
            </ul>
            <TotalWithTradeIn
              amounts={cart.amounts}
              currency={cart.currency}
              delivery={deliveryShown(DEFAULT_SHIPPING_METHOD, cart.currency)}
              followsCheckout
              reads={false}
            />
            <TeaserSlot type="cart-summary" />
          </CartSummary>
        </aside>
      </div>
    </>
  );
}
