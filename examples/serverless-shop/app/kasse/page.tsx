import { currentShopper } from "@sls/lib/current";
import { db } from "@sls/lib/db";
import { cartAmounts, euro, openCart } from "@sls/lib/shop";
import { CheckoutForm } from "./formular";

export default async function Kasse() {
  const shopper = await currentShopper();
  const lines = (await openCart(db(), shopper.sessionId))?.lines ?? [];
  if (lines.length === 0) return <p>Ihr Warenkorb ist leer.</p>;
  const { total } = cartAmounts(lines);
  const cut = shopper.name?.lastIndexOf(" ") ?? -1;
  const customer = shopper.name
    ? {
        email: shopper.email ?? "",
        givenName: cut > 0 ? shopper.name.slice(0, cut) : shopper.name,
        familyName: cut > 0 ? shopper.name.slice(cut + 1) : "",
      }
    : null;
  return (
    <>
      <h1>Kasse</h1>
      <p>Zu zahlen: {euro(total)} (inkl. Versand)</p>
      <div className="service-teaser" data-type="cart-summary" />
      <CheckoutForm cartKey={`EUR:${total}`} total={total} customer={customer} />
    </>
  );
}
