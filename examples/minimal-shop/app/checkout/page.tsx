import { currentSession } from "@mini/lib/current";
import { db } from "@mini/lib/db";
import { customers } from "@mini/lib/schema";
import { cartAmounts, euro, openCart } from "@mini/lib/shop";
import { eq } from "drizzle-orm";
import { CheckoutForm } from "./checkout-form";

export default async function Checkout() {
  const session = await currentSession();
  const lines = (await openCart(db(), session.sessionId))?.lines ?? [];
  if (lines.length === 0) return <p>Your cart is empty.</p>;
  const { total } = cartAmounts(lines);
  const [customer = null] = session.customerId
    ? await db().select().from(customers).where(eq(customers.id, session.customerId))
    : [];
  return (
    <>
      <h1>Checkout</h1>
      <p>To pay: {euro(total)} (delivery included)</p>
      <div className="service-teaser" data-type="cart-summary" />
      <CheckoutForm cartKey={`EUR:${total}`} customer={customer} />
    </>
  );
}
