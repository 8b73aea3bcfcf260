import { servicePaymentOpen } from "@service-integration/kit/server";
import type { Metadata } from "next";
import { servicePayDeps } from "@/lib/service-adapter/service";
import { getPageSession } from "@/lib/session/session";
import {
  releaseServicePaymentAction,
  removePromotionCodeAction,
  updateCartItemAction,
} from "@/lib/shop/actions/cart-actions";
import { loadPageCart, QUANTITY_CHOICES } from "@/lib/shop/cart";
import { DEFAULT_SHIPPING_METHOD, deliveryShown } from "@/lib/shop/shipping";
import { CartSummary } from "@/lib/ui/cart-summary";
import { EmptyCart } from "@/lib/ui/empty-cart";
import { Link } from "@/lib/ui/link";
import { Money } from "@/lib/ui/money";
import { PromotionCodeForm } from "@/lib/ui/promotion-code-form";
import { TeaserSlot } from "@/lib/ui/teaser-slot";
import { TotalWithTradeIn } from "@/lib/ui/trade-in-amounts";

export const metadata: Metadata = { title: "Your cart" };

export default async function CartPage() {
  const session = await getPageSession();
  const cart = session.sessionId ? await loadPageCart(session.sessionId) : null;
  if (!cart || cart.lines.length === 0) {
    return <EmptyCart heading="Your cart" message="Your cart is empty." />;
  }
  const paymentOpen =
    session.sessionId !== undefined &&
    (await servicePaymentOpen(servicePayDeps(), session.sessionId));
  return (
    <>
      <h1>Your cart</h1>
      {paymentOpen ? (
        <div className="alert" role="status" data-testid="payment-open">
          <p>
            A payment with Service is open for this cart, so the cart cannot change until it is
            finished. Paying in the other window pays for exactly these items.
          </p>
          <form action={releaseServicePaymentAction}>
            <button type="submit" className="button">
              Cancel that payment and change the cart
            </button>
          </form>
        </div>
      ) : null}
      <div className="cart-layout">
        <section aria-label="Items in your cart">
          <ul className="cart-lines">
            {cart.lines.map((line) => (
              <li key={line.id} className="cart-line" data-testid="cart-line">
                {/* biome-ignore lint/performance/noImgElement: local SVGs need no optimisation */}
                <img src={line.image} alt="" width={120} height={90} />
                <div className="cart-line__info">
                  <Link href={`/products/${line.slug}`} className="cart-line__name">
                    {line.name}
                  </Link>
                  <p className="muted">
                    <Money cents={line.price} currency={cart.currency} /> each before VAT
                  </p>
                  <form action={updateCartItemAction} className="cart-line__quantity">
                    <input type="hidden" name="itemId" value={line.id} />
                    <label htmlFor={`qty-${line.id}`}>Quantity</label>
                    <select id={`qty-${line.id}`} name="quantity" defaultValue={line.quantity}>
                      {QUANTITY_CHOICES.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                    <button type="submit" className="button">
                      Update<span className="visually-hidden"> {line.name}</span>
                    </button>
                  </form>
                  <form action={updateCartItemAction}>
                    <input type="hidden" name="itemId" value={line.id} />
                    <input type="hidden" name="quantity" value="0" />
                    <button type="submit" className="button button--link">
                      Remove<span className="visually-hidden"> {line.name}</span>
                    </button>
                  </form>
                </div>
                <p className="cart-line__total">
                  <Money cents={line.total} currency={cart.currency} />
                </p>
              </li>
            ))}
          </ul>
          <section aria-labelledby="promotions-title" className="promotions">
            <h2 id="promotions-title">Promotion codes</h2>
            {cart.discounts.length + cart.idlePromotions.length > 0 ? (
              <ul className="promotions__applied">
                {cart.discounts.map((discount) => (
                  <li key={discount.id} data-testid="applied-promotion">
                    <strong>{discount.code}</strong> {discount.name}: −
                    <Money cents={discount.total} currency={cart.currency} />{" "}
                    <RemovePromotion code={discount.code} />
                  </li>
                ))}
                {cart.idlePromotions.map((idle) => (
                  <li key={idle.code} data-testid="idle-promotion">
                    <strong>{idle.code}</strong> takes nothing off now: {idle.message}{" "}
                    <RemovePromotion code={idle.code} />
                  </li>
                ))}
              </ul>
            ) : null}
            <PromotionCodeForm />
          </section>
          <TeaserSlot type="cart-summary" />
        </section>
        <CartSummary amounts={cart.amounts} currency={cart.currency} discounts={cart.discounts}>
          <TotalWithTradeIn
            amounts={cart.amounts}
            currency={cart.currency}
            delivery={deliveryShown(DEFAULT_SHIPPING_METHOD, cart.currency)}
          />
          <TeaserSlot type="cart-summary" />
          <Link href="/checkout" className="button button--primary button--large">
            Go to checkout
          </Link>
        </CartSummary>
      </div>
    </>
  );
}

function RemovePromotion({ code }: { code: string }) {
  return (
    <form action={removePromotionCodeAction} className="inline-form">
      <input type="hidden" name="code" value={code} />
      <button type="submit" className="button button--link">
        Remove<span className="visually-hidden"> promotion code {code}</span>
      </button>
    </form>
  );
}
