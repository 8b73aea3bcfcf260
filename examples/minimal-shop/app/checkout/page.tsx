import { currentSession } from "@mini/lib/current";
import { db } from "@mini/lib/db";
import { cartAmounts, euro, openCart } from "@mini/lib/shop";
import { CheckoutForm } from "./checkout-form";

export default async function Checkout() {
  const session = await currentSession();
  const lines = openCart(session.sessionId)?.lines ?? [];
  if (lines.length === 0) return <p>Your cart is empty.</p>;
  const { total } = cartAmounts(lines);
  const customer = session.customerId
    ? (db()
        .prepare("SELECT email, givenName, familyName FROM customers WHERE id = ?")
        .get(session.customerId) as { email: string; givenName: string; familyName: string })
    : null;
  return (
    <>
      <h1>Checkout</h1>
      <p>To pay: {euro(total)} (delivery included)</p>
      <div className="service-teaser" data-type="cart-summary" />
      <CheckoutForm cartKey={`EUR:${total}`} customer={customer} />
    </>
  );
}
