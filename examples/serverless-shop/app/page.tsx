import { addToCartAction, cancelPaymentAction } from "@sls/app/actions";
import { currentShopper } from "@sls/lib/current";
import { db } from "@sls/lib/db";
import { cartAmounts, euro, openCart, products } from "@sls/lib/shop";

export default async function Start({
  searchParams,
}: {
  searchParams: Promise<{ gesperrt?: string }>;
}) {
  const cart = await openCart(db(), (await currentShopper()).sessionId);
  const lines = cart?.lines ?? [];
  return (
    <>
      {/* The banner goes where the layout's teaser selector points (bannerCssSelector). */}
      <section className="aktion" aria-label="Inzahlungnahme" />
      <h1>Produkte</h1>
      {(await products()).map((p) => (
        <form key={p.id} id={p.id} action={addToCartAction} className="karte">
          <input type="hidden" name="product" value={p.id} />
          {p.name}: {euro(p.price + p.tax)} <button type="submit">{p.name} in den Warenkorb</button>
        </form>
      ))}
      <div className="service-teaser" data-type="product-widget" />
      <h2>Warenkorb</h2>
      {(await searchParams).gesperrt ? (
        <div role="alert">
          Für diesen Warenkorb ist eine Zahlung beim Dienst offen.
          <form action={cancelPaymentAction}>
            <button type="submit">Zahlung abbrechen, um den Warenkorb zu ändern</button>
          </form>
        </div>
      ) : null}
      <ul data-testid="warenkorb">
        {lines.map((l) => (
          <li key={l.productId}>
            {l.quantity} × {l.name}
          </li>
        ))}
      </ul>
      <p>Summe mit Versand: {euro(cartAmounts(lines).total)}</p>
      <div className="service-teaser" data-type="cart-summary" />
    </>
  );
}
