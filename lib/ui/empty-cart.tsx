import { Link } from "@/lib/ui/link";

/** The cart and checkout pages without anything in the cart: why, and the way back. */
export function EmptyCart({ heading, message }: { heading: string; message: string }) {
  return (
    <>
      <h1>{heading}</h1>
      <p data-testid="empty-cart">{message}</p>
      <p>
        <Link href="/" className="button button--primary">
          Browse products
        </Link>
      </p>
    </>
  );
}
