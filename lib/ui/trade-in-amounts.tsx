"use client";

import { useActiveTradeIn, useTradeInAtPayment } from "@/lib/service/active-trade-in";
import { afterTradeIn, formatMoney } from "@/lib/shop/money";

/**
 * The shopper's accepted trade-in in the shop's own amounts. Each renders its line box even when
 * empty, so the text arriving after the SDK answered pushes nothing down (layout shift).
 */

/** Product page: "from €379.00 with your trade-in" under the price. */
export function ProductPriceWithTradeIn({ price, currency }: { price: number; currency: string }) {
  const tradeIn = useActiveTradeIn(currency);
  const shown = tradeIn && price > tradeIn.value;
  return (
    <p className="trade-in-line" data-testid="product-trade-in-price">
      {shown ? (
        <>
          from <strong>{formatMoney(afterTradeIn(price, tradeIn.value), currency)}</strong> with
          your trade-in
        </>
      ) : null}
    </p>
  );
}

/** Cart and checkout summary: what is left to pay once Service Pay takes the trade-in off. */
export function TotalWithTradeIn({
  total,
  currency,
  reads = true,
}: {
  total: number;
  currency: string;
  reads?: boolean;
}) {
  const tradeIn = useActiveTradeIn(currency, { cartKey: `${currency}:${total}`, reads });
  const shown = tradeIn && tradeIn.mode === "tradein_valid";
  return (
    <p className="trade-in-line" data-testid="total-with-trade-in">
      {shown ? (
        <>
          With your {formatMoney(tradeIn.value, currency)} trade-in:{" "}
          <strong>{formatMoney(afterTradeIn(total, tradeIn.value), currency)}</strong> to pay with
          Service Pay
        </>
      ) : null}
    </p>
  );
}

/** Confirmation page before the payment's notification: the discount Service Pay applied. */
export function TradeInAppliedAtPayment({ currency }: { currency: string }) {
  const tradeIn = useTradeInAtPayment(currency);
  return (
    <p className="trade-in-line" data-testid="trade-in-applied">
      {tradeIn ? (
        <>
          Your trade-in discount: <strong>−{formatMoney(tradeIn.value, currency)}</strong>
        </>
      ) : null}
    </p>
  );
}
