"use client";

import { payByCardAction } from "@mini/app/actions";
import { formFields, routes } from "@mini/lib/service/checkout";
import { ADDRESS_FIELDS } from "@service-integration/kit";
import { ServicePaymentOption } from "@service-integration/kit/react";
import { useActionState, useState } from "react";

interface Props {
  cartKey: string;
  customer: { email: string; givenName: string; familyName: string } | null;
}

export function CheckoutForm({ cartKey, customer }: Props) {
  const [error, action] = useActionState(payByCardAction, null);
  const [payment, setPayment] = useState("card");
  const prefill: Record<string, string> = {
    given_name: customer?.givenName ?? "",
    family_name: customer?.familyName ?? "",
  };
  return (
    <form id="checkout-form" action={action}>
      <label>
        Email <input name={formFields.email} defaultValue={customer?.email} />
      </label>
      {ADDRESS_FIELDS.map((field) => (
        <label key={field}>
          {field.replaceAll("_", " ")}{" "}
          <input name={formFields.billing[field]} defaultValue={prefill[field]} />
        </label>
      ))}
      <input type="hidden" name={formFields.shippingSame} value="on" />
      <input type="hidden" name={formFields.shippingMethod} value="standard" />
      <fieldset>
        <legend>Payment</legend>
        <div className="card-option">
          <input
            id="pay-card"
            type="radio"
            name="payment_method"
            value="card"
            checked={payment === "card"}
            onChange={() => setPayment("card")}
          />
          <label htmlFor="pay-card">Card</label>
        </div>
        <ServicePaymentOption
          formId="checkout-form"
          selected={payment === "service_pay"}
          onSelectedChange={(chosen) => setPayment(chosen ? "service_pay" : "card")}
          cartKey={cartKey}
          fields={formFields}
          routes={routes}
        />
      </fieldset>
      {error ? <p role="alert">{error}</p> : null}
      <button type="submit">Pay</button>
    </form>
  );
}
