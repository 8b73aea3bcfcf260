"use client";

import { useActiveTradeIn, useTradeInAtPayment } from "@service-integration/kit/react";
import { type CartAmounts, formatMoney, toPayWithTradeIn } from "@/lib/shop/money";
import { type DeliveryShown, useSelectedDelivery } from "./selected-delivery";

/**
 * The shopper's accepted trade-in in the shop's own amounts. Every "to pay" is the one formula
 * (toPayWithTradeIn): items, tax and delivery less the trade-in, the number the service's window
 * shows. Each renders its line box even when empty, so the text arriving after the SDK answered
 * pushes nothing down (layout shift).
 */

const included = (delivery: DeliveryShown) => `${delivery.name.toLowerCase()} included`;

/** Product page: "from €383.99 with your trade-in, standard delivery included". */
export function ProductPriceWithTradeIn({
  price,
  currency,
  delivery,
}: {
  price: number;
  currency: string;
  delivery: DeliveryShown;
}) {
  const tradeIn = useActiveTradeIn(currency);
  const order = { price, tax: 0, shippingPrice: delivery.price, discountTotal: 0 };
  const shown = tradeIn && toPayWithTradeIn(order, tradeIn.value) > 0;
  return (
    <p className="trade-in-line" data-testid="product-trade-in-price">
      {shown ? (
        <>
          from <strong>{formatMoney(toPayWithTradeIn(order, tradeIn.value), currency)}</strong> with
          your trade-in, {included(delivery)}
        </>
      ) : null}
    </p>
  );
}

/**
 * Cart and checkout summary: what is left to pay once Service Pay takes the trade-in off, with
 * the delivery the shopper chose at checkout (`followsCheckout`), else the default `delivery`.
 */
export function TotalWithTradeIn({
  amounts,
  currency,
  delivery,
  followsCheckout = false,
  reads = true,
}: {
  amounts: CartAmounts;
  currency: string;
  delivery: DeliveryShown;
  followsCheckout?: boolean;
  reads?: boolean;
}) {
  const tradeIn = useActiveTradeIn(currency, { cartKey: `${currency}:${amounts.total}`, reads });
  const chosen = useSelectedDelivery(delivery);
  const shownDelivery = followsCheckout ? chosen : delivery;
  const shown = tradeIn && tradeIn.mode === "tradein_valid";
  return (
    <p className="trade-in-line" data-testid="total-with-trade-in">
      {shown ? (
        <>
          With your {formatMoney(tradeIn.value, currency)} trade-in:{" "}
          <strong>
            {formatMoney(
              toPayWithTradeIn({ ...amounts, shippingPrice: shownDelivery.price }, tradeIn.value),
              currency,
            )}
          </strong>{" "}
          to pay with Service Pay, {included(shownDelivery)}
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
