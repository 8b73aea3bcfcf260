/**
 * What the kit's browser components show a shopper, in words and in look, as objects a shop
 * overrides: every text in a messages object (English by default), every element a class name
 * (neutral `service-pay-…` names by default, no style of the kit's own). The service's own texts
 * (the option's label, explanation, info and extra HTML) come from the SDK in the service's
 * language (contract: Payment option details) and are not here.
 */

/** The texts of the Service Pay option (`ServicePaymentOption`). */
export interface PaymentOptionMessages {
  /** The option's name when the service gives no label. */
  fallbackLabel: string;
  /** The button that shows the service's information about the option. */
  about: (label: string) => string;
  /** Starting the payment failed and the shop's route gave no description for the shopper. */
  couldNotStart: string;
}

/** The class name of each element of the Service Pay option; several may be given, space-separated. */
export interface PaymentOptionClassNames {
  /** The option's box: the radio, then its body. */
  root: string;
  /** The body beside the radio: label, explanation, info, extra, error. */
  body: string;
  /** The label: the service's icon and the option's name. */
  label: string;
  /** The option's name in its label. */
  title: string;
  /** Why the option is disabled (tradein_invalid). */
  explanation: string;
  /** The button that shows or hides the service's information. */
  infoButton: string;
  /** The service's information about the option. */
  info: string;
  /** The service's extra text shown while the option is chosen. */
  extra: string;
  /** What went wrong starting the payment. */
  error: string;
}

/** The texts of the confirmation page's status line (`PaymentStatusWatcher`). */
export interface PaymentStatusMessages {
  /** The order is pending until the service's webhook lands. */
  waiting: string;
  /** The webhook landed while the shopper watched. */
  confirmed: string;
}

/** The payment option's texts in English (a shop passes its own to translate them). */
export const DEFAULT_PAYMENT_OPTION_MESSAGES: PaymentOptionMessages = {
  fallbackLabel: "Pay with Service",
  about: (label) => `About ${label}`,
  couldNotStart: "We could not start the payment. Please try again.",
};

/** The payment option's class names (BEM, `service-pay-option…`), for the shop's styles. */
export const DEFAULT_PAYMENT_OPTION_CLASS_NAMES: PaymentOptionClassNames = {
  root: "service-pay-option",
  body: "service-pay-option__body",
  label: "service-pay-option__label",
  title: "service-pay-option__title",
  explanation: "service-pay-option__explanation",
  infoButton: "service-pay-option__about",
  info: "service-pay-option__info",
  extra: "service-pay-option__extra",
  error: "service-pay-option__error",
};

/** The payment status's texts in English (a shop passes its own to translate them). */
export const DEFAULT_PAYMENT_STATUS_MESSAGES: PaymentStatusMessages = {
  waiting: "Waiting for the service to confirm your payment. This page updates by itself.",
  confirmed: "Payment confirmed.",
};
