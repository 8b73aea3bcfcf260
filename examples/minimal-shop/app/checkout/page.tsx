import { currentSession } from "@mini/lib/current";
import { db } from "@mini/lib/db";
import { cartAmounts, euro, openCart } from "@mini/lib/shop";
import { CheckoutForm } from "./checkout-form";

export default async function Checkout() {
  const session = await currentSession();
  const lines = (await openCart(db(), session.sessionId))?.lines ?? [];
  if (lines.length === 0) return <p>Your cart is empty.</p>;
  const { total } = cartAmounts(lines);
  const customer = session.customerId
    ? await db().customer.findUnique({
        where: { id: session.customerId },
        select: { email: true, givenName: true, familyName: true },
      })
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
