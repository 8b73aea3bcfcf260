// The payment-method list of the checkout form (radio inputs named `payment_method`). The
// service's option (`service_pay`, contract: Payment option markup) is added by the integration
// as one more entry plus its own client-side behaviour; the checkout form renders whatever is here.

export const PAYMENT_METHODS = [
  {
    value: "card",
    label: "Credit or debit card",
    description: "Test mode: no real card is charged.",
  },
] as const;

/** Values the checkout server action accepts. The integration extends this with "service_pay". */
export const CHECKOUT_PAYMENT_VALUES = ["card", "service_pay"] as const;
