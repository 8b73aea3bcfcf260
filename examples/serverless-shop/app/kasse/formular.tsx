"use client";

import { ADDRESS_FIELDS, type Address } from "@service-integration/kit";
import { ServicePaymentOption } from "@service-integration/kit/react";
import { placeCardOrder } from "@sls/app/actions";
import { loadCard } from "@sls/lib/card/card-sdk";
import { formFields, routes } from "@sls/lib/service/checkout";
import { type FormEvent, useState, useTransition } from "react";

interface Props {
  cartKey: string;
  /** What the card is charged, in cents (the page's "Zu zahlen"). */
  total: number;
  customer: { email: string; givenName: string; familyName: string } | null;
}

const LABELS: Record<keyof Address, string> = {
  given_name: "Vorname",
  family_name: "Nachname",
  phone: "Telefon",
  address: "Straße und Hausnummer",
  city: "Ort",
  state: "Bundesland",
  country_code: "Ländercode",
  postal_code: "Postleitzahl",
};

// The kit's payment option in this shop's look and language (its classNames and messages).
const OPTION_LOOK = {
  root: "zahlart",
  body: "zahlart__inhalt",
  title: "zahlart__titel",
  explanation: "zahlart__hinweis",
  infoButton: "zahlart__mehr",
  info: "zahlart__info",
  error: "zahlart__fehler",
};
const OPTION_TEXTS = {
  fallbackLabel: "Mit dem Dienst bezahlen",
  about: (label: string) => `Mehr über ${label}`,
  couldNotStart: "Die Zahlung konnte nicht gestartet werden. Bitte versuchen Sie es erneut.",
};

export function CheckoutForm({ cartKey, total, customer }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const [payment, setPayment] = useState("card");
  const prefill: Partial<Record<keyof Address, string>> = {
    given_name: customer?.givenName ?? "",
    family_name: customer?.familyName ?? "",
  };

  // The card path as a processor's SDK has it: the browser confirms the payment, then the shop's
  // server places the order against that confirmation. With Service Pay chosen this never runs:
  // the kit's payment option takes the submit first (contract, Front-end SDK › Payment option
  // markup: no other payment may run).
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    const card = await loadCard();
    const confirmed = await card.confirmPayment({ amount: total, currency: "EUR" });
    if ("error" in confirmed) {
      setError(`Die Karte wurde abgelehnt: ${confirmed.error}`);
      return;
    }
    form.set("card_payment", confirmed.paymentId);
    startTransition(async () => setError(await placeCardOrder(form)));
  }

  return (
    <form id="checkout-form" onSubmit={onSubmit} className="karte">
      <label>
        E-Mail <input name={formFields.email} defaultValue={customer?.email} />
      </label>
      {ADDRESS_FIELDS.map((field) => (
        <label key={field}>
          {LABELS[field]} <input name={formFields.billing[field]} defaultValue={prefill[field]} />
        </label>
      ))}
      <input type="hidden" name={formFields.shippingSame} value="on" />
      <input type="hidden" name={formFields.shippingMethod} value="standard" />
      <fieldset>
        <legend>Zahlungsart</legend>
        <div className="zahlart">
          <input
            id="pay-card"
            type="radio"
            name="payment_method"
            value="card"
            checked={payment === "card"}
            onChange={() => setPayment("card")}
          />
          <label htmlFor="pay-card">Karte</label>
        </div>
        <ServicePaymentOption
          formId="checkout-form"
          selected={payment === "service_pay"}
          onSelectedChange={(chosen) => setPayment(chosen ? "service_pay" : "card")}
          cartKey={cartKey}
          fields={formFields}
          routes={routes}
          classNames={OPTION_LOOK}
          messages={OPTION_TEXTS}
        />
      </fieldset>
      {error ? <p role="alert">{error}</p> : null}
      <button type="submit" disabled={pending}>
        Bezahlen
      </button>
    </form>
  );
}
