import type { ReactNode } from "react";
import type { CartAmounts } from "@/lib/shop/money";
import { Money } from "./money";

/** Subtotal, VAT, optional delivery and total; `children` goes between the total and any action. */
export function CartSummary({
  amounts,
  currency,
  shipping,
  children,
}: {
  amounts: CartAmounts;
  currency: string;
  shipping?: { label: string; price: number };
  children?: ReactNode;
}) {
  const total = amounts.total + (shipping?.price ?? 0);
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Order summary</h2>
      <dl>
        <div>
          <dt>Subtotal (before VAT)</dt>
          <dd>
            <Money cents={amounts.price} currency={currency} />
          </dd>
        </div>
        <div>
          <dt>VAT</dt>
          <dd>
            <Money cents={amounts.tax} currency={currency} />
          </dd>
        </div>
        {shipping ? (
          <div>
            <dt>{shipping.label}</dt>
            <dd>
              <Money cents={shipping.price} currency={currency} />
            </dd>
          </div>
        ) : null}
        <div className="summary__total">
          <dt>Total</dt>
          <dd data-testid="cart-total">
            <Money cents={total} currency={currency} />
          </dd>
        </div>
      </dl>
      {children}
    </section>
  );
}
