import { addToCartAction, cancelPaymentAction } from "@mini/app/actions";
import { currentSession } from "@mini/lib/current";
import { db } from "@mini/lib/db";
import { cartAmounts, euro, openCart, products } from "@mini/lib/shop";

export default async function Home({
  searchParams,
}: {
  searchParams: Promise<{ locked?: string }>;
}) {
  const cart = await openCart(db(), (await currentSession()).sessionId);
  const lines = cart?.lines ?? [];
  return (
    <>
      <div className="service-teaser" data-type="banner" />
      <h1>Products</h1>
      {(await products()).map((p) => (
        <form key={p.id} id={p.id} action={addToCartAction}>
          <input type="hidden" name="product" value={p.id} />
          {p.name}: {euro(p.price + p.tax)} <button type="submit">Add {p.name} to cart</button>
        </form>
      ))}
      <div className="service-teaser" data-type="product-widget" />
      <h2>Cart</h2>
      {(await searchParams).locked ? (
        <div role="alert">
          A payment with the service is open for this cart.
          <form action={cancelPaymentAction}>
            <button type="submit">Cancel the payment to change the cart</button>
          </form>
        </div>
      ) : null}
      <ul data-testid="cart">
        {lines.map((l) => (
          <li key={l.productId}>
            {l.quantity} × {l.name}
          </li>
        ))}
      </ul>
      <p>Total with delivery: {euro(cartAmounts(lines).total)}</p>
      <div className="service-teaser" data-type="cart-summary" />
    </>
  );
}
