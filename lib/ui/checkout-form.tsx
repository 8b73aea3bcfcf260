"use client";

import type { PaymentOptionClassNames } from "@service-integration/kit";
import { SERVICE_PAY_VALUE } from "@service-integration/kit";
import { ServicePaymentOption, useActiveTradeIn } from "@service-integration/kit/react";
import { type ReactNode, useActionState, useEffect, useRef, useState } from "react";
import { checkoutFormFields, shopRoutes } from "@/lib/service-adapter/checkout-wiring";
import { type CheckoutState, checkoutAction } from "@/lib/shop/actions/checkout-actions";
import { type CartAmounts, formatMoney, orderTotal, toPayWithTradeIn } from "@/lib/shop/money";
import { PAYMENT_METHODS } from "@/lib/shop/payment-methods";
import { TEST_CARDS } from "@/lib/shop/test-card";
import { AddressFields } from "./address-fields";
import { Field } from "./field";
import { selectDelivery } from "./selected-delivery";

export interface ShippingOption {
  id: string;
  name: string;
  detail: string;
  price: number;
}

interface Props {
  currency: string;
  amounts: CartAmounts;
  shippingOptions: ShippingOption[];
  defaults: Record<string, string>;
  /** A guest is offered a login that comes back here when choosing Service Pay. */
  signedIn: boolean;
  /**
   * Extra payment options rendered inside the payment-method list, after the shop's own
   * (the integration adds the service's `service_pay` radio here). Client-side behaviour such
   * as intercepting the submit is attached to the form `#checkout-form`: React skips the
   * server action when a submit listener calls preventDefault().
   */
  extraPaymentOptions?: ReactNode;
  /** Below the total, before the submit button (cart-summary teaser spot). */
  summarySlot?: ReactNode;
}

const initial: CheckoutState = {};

/** The kit's Service Pay option in this shop's look: its payment methods' cards (app/globals.css). */
const SERVICE_PAY_OPTION_LOOK: Partial<PaymentOptionClassNames> = {
  root: "radio-card service-pay-option",
  title: "radio-card__title service-pay-option__title",
  explanation: "muted",
  infoButton: "button button--link",
  info: "muted",
  error: "field__error",
};

export function CheckoutForm(props: Props) {
  const [state, action, pending] = useActionState(checkoutAction, initial);
  const values = state.values ?? props.defaults;
  const errors = state.errors ?? {};
  const [sameAddress, setSameAddress] = useState(values.shipping_same !== "off");
  const [shippingId, setShippingId] = useState(
    values.shipping_method ?? props.shippingOptions[0]?.id ?? "",
  );
  const [payment, setPayment] = useState(values.payment_method ?? "card");
  const shipping = props.shippingOptions.find((o) => o.id === shippingId);
  // The one formula (lib/shop/money.ts): items, tax and the chosen delivery.
  const order = { ...props.amounts, shippingPrice: shipping?.price ?? 0 };
  const total = orderTotal({ ...order, tradeInDiscount: 0 });
  // The order summary beside the form shows the same delivery in its "to pay".
  useEffect(() => {
    selectDelivery(shipping ? { name: shipping.name, price: shipping.price } : null);
    return () => selectDelivery(null);
  }, [shipping]);
  const money = (cents: number) => formatMoney(cents, props.currency);
  // The payment option publishes what the SDK said (no second call): with Service Pay the
  // accepted trade-in comes off the total (contract: Payment option details › data.valuation).
  const tradeIn = useActiveTradeIn(props.currency, { reads: false });
  const tradeInUsable = tradeIn?.mode === "tradein_valid" ? tradeIn : null;
  const discount = payment === SERVICE_PAY_VALUE && tradeInUsable ? tradeInUsable.value : 0;
  const errorList = Object.entries(errors);
  // After a refused submit (declined card, invalid fields) the message is brought into view and
  // focused, wherever the shopper was on this long form; a screen reader reads it out.
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!state.formError || !alertRef.current) return;
    alertRef.current.scrollIntoView({ block: "center" });
    alertRef.current.focus({ preventScroll: true });
  }, [state]);

  return (
    <form id="checkout-form" action={action} noValidate className="checkout-form">
      {state.formError ? (
        <div
          ref={alertRef}
          tabIndex={-1}
          role="alert"
          className="alert alert--error"
          data-testid="checkout-error"
        >
          <p>{state.formError}</p>
          {!state.emptyCart && (values.payment_method === "card" || !values.payment_method) ? (
            <p data-testid="card-fields-cleared">
              For your security the card details are not kept: enter them again below.
            </p>
          ) : null}
          {errorList.length > 0 ? (
            <ul>
              {errorList.map(([field, message]) => (
                <li key={field}>
                  <a href={`#${field}`}>{message}</a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <fieldset>
        <legend>Contact</legend>
        <Field
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
          required
        />
      </fieldset>

      <fieldset>
        <legend>Billing address</legend>
        <AddressFields prefix="billing" values={values} errors={errors} />
      </fieldset>

      <fieldset>
        <legend>Delivery address</legend>
        <div className="checkbox">
          <input
            id="shipping_same"
            name="shipping_same"
            type="checkbox"
            checked={sameAddress}
            onChange={(e) => setSameAddress(e.target.checked)}
          />
          <label htmlFor="shipping_same">Deliver to my billing address</label>
        </div>
        {sameAddress ? null : <AddressFields prefix="shipping" values={values} errors={errors} />}
      </fieldset>

      <fieldset aria-describedby={errors.shipping_method ? "shipping_method-error" : undefined}>
        <legend>Delivery method</legend>
        {props.shippingOptions.map((option) => (
          <div className="radio-card" key={option.id}>
            <input
              id={`shipping_method_${option.id}`}
              type="radio"
              name="shipping_method"
              value={option.id}
              checked={shippingId === option.id}
              onChange={() => setShippingId(option.id)}
            />
            <label htmlFor={`shipping_method_${option.id}`}>
              <span className="radio-card__title">{option.name}</span>
              <span className="muted">{option.detail}</span>
              <span className="radio-card__price">{money(option.price)}</span>
            </label>
          </div>
        ))}
        {errors.shipping_method ? (
          <p id="shipping_method-error" className="field__error">
            {errors.shipping_method}
          </p>
        ) : null}
      </fieldset>

      <fieldset
        className="payment-methods"
        data-payment-methods
        aria-describedby={errors.payment_method ? "payment_method-error" : undefined}
      >
        <legend>Payment method</legend>
        {PAYMENT_METHODS.map((method) => (
          <div className="radio-card" key={method.value}>
            <input
              id={`payment_method_${method.value}`}
              type="radio"
              name="payment_method"
              value={method.value}
              checked={payment === method.value}
              onChange={() => setPayment(method.value)}
            />
            <label htmlFor={`payment_method_${method.value}`}>
              <span className="radio-card__title">{method.label}</span>
              <span className="muted">{method.description}</span>
            </label>
          </div>
        ))}
        {/* The service's option: shown, disabled or absent as its SDK says (the kit). */}
        <ServicePaymentOption
          formId="checkout-form"
          selected={payment === SERVICE_PAY_VALUE}
          onSelectedChange={(chosen) =>
            setPayment(chosen ? SERVICE_PAY_VALUE : (PAYMENT_METHODS[0]?.value ?? "card"))
          }
          cartKey={`${props.currency}:${props.amounts.total}`}
          fields={checkoutFormFields}
          routes={shopRoutes}
          classNames={SERVICE_PAY_OPTION_LOOK}
        />
        <p className="trade-in-line" data-testid="service-pay-trade-in">
          {tradeInUsable ? (
            <>
              Your {money(tradeInUsable.value)} trade-in comes off the total:{" "}
              <strong>{money(toPayWithTradeIn(order, tradeInUsable.value))}</strong> to pay with
              Service Pay.
            </>
          ) : null}
        </p>
        {props.signedIn ? null : (
          <p className="muted" data-testid="service-pay-login">
            Trading in a device with Service Pay needs an account:{" "}
            <a href="/account/login?next=/checkout">log in and come back to checkout</a>.
          </p>
        )}
        {props.extraPaymentOptions}
        {errors.payment_method ? (
          <p id="payment_method-error" className="field__error">
            {errors.payment_method}
          </p>
        ) : null}
        {payment === "card" ? (
          <div className="card-fields">
            <Field
              name="card_number"
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              error={errors.card_number}
              required
              hint={
                <>
                  Test cards: <strong>{TEST_CARDS.success}</strong> is accepted,{" "}
                  <strong>{TEST_CARDS.declined}</strong> is declined. Use any future expiry date and
                  any 3 digits.
                </>
              }
            />
            <div className="card-fields__row">
              <Field
                name="card_expiry"
                label="Expiry (MM/YY)"
                autoComplete="cc-exp"
                defaultValue={values.card_expiry}
                error={errors.card_expiry}
                required
              />
              <Field
                name="card_cvc"
                label="Security code"
                inputMode="numeric"
                autoComplete="cc-csc"
                error={errors.card_cvc}
                required
              />
            </div>
          </div>
        ) : null}
      </fieldset>

      <div className="checkout-form__footer">
        {discount > 0 ? (
          <dl className="checkout-form__amounts">
            <div className="checkout-form__amount-row">
              <dt>Order total</dt>
              <dd>{money(total)}</dd>
            </div>
            <div className="checkout-form__amount-row">
              <dt>Trade-in discount</dt>
              <dd data-testid="checkout-trade-in-discount" className="money">
                −{money(discount)}
              </dd>
            </div>
          </dl>
        ) : null}
        <p className="checkout-form__total">
          Total to pay:{" "}
          <strong data-testid="checkout-total">{money(toPayWithTradeIn(order, discount))}</strong>
        </p>
        {props.summarySlot}
        <button type="submit" className="button button--primary button--large" disabled={pending}>
          {pending ? "Placing order…" : "Place order"}
        </button>
      </div>
    </form>
  );
}
