import type { ReactNode } from "react";
import { type CartAmounts, orderTotal } from "@/lib/shop/money";
import type { CartDiscount } from "@/lib/shop/promotions";
import { Money } from "./money";

/** Subtotal, VAT, the promotion codes' discounts, optional delivery and total; `children` goes
 *  between the total and any action. */
export function CartSummary({
  amounts,
  currency,
  discounts = [],
  shipping,
  children,
}: {
  amounts: CartAmounts;
  currency: string;
  discounts?: readonly CartDiscount[];
  shipping?: { label: string; price: number };
  children?: ReactNode;
}) {
  // The one formula (lib/shop/money.ts): no trade-in yet, the delivery when it is known.
  const total = orderTotal({ ...amounts, shippingPrice: shipping?.price ?? 0, tradeInDiscount: 0 });
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
        {discounts.map((discount) => (
          <div key={discount.id} data-testid="cart-discount">
            <dt>
              {discount.code} ({discount.name})
            </dt>
            <dd className="money">
              −<Money cents={discount.total} currency={currency} />
            </dd>
          </div>
        ))}
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
