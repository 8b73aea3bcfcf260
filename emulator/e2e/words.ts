// Where each of the SDK's texts shows (its message table, emulator/sdk/format.ts), as
// every-word.e2e.ts brings that surface into that state and reads it, in every language the SDK
// ships. A key added to the table without a place here fails to type-check and fails
// emulator/test/sdk-words.test.ts; one left unread fails the browser test itself.
import { en, es, type Locale, type MessageKey } from "../sdk/format";

export const LANGUAGES: readonly Locale[] = ["en", "es"];

/** The SDK's own table, per language (the words the shopper must read). */
export const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, es };

/**
 * The browser test that reads each word (its journey, one test per language), and where the word
 * shows there. A word shown in several journeys is read in each; it is listed under one.
 */
export type Journey = "wizard" | "payment" | "failures";

export const WHERE_EACH_WORD_SHOWS: Record<MessageKey, [Journey, string]> = {
  calculate: ["wizard", "each teaser's button, before a valuation"],
  again: ["wizard", "each teaser's button, with the accepted offer"],
  banner: ["wizard", "the banner teaser, before a valuation"],
  "product-widget": ["wizard", "the product-widget teaser, before a valuation"],
  "cart-summary": ["wizard", "the cart-summary teaser, before a valuation"],
  "thank-you": [
    "wizard",
    "the thank-you teaser, before a valuation (added late, as a single-page app does)",
  ],
  offer: ["wizard", "the teaser with the accepted offer: its group's name and its bold prefix"],
  offerLine: ["wizard", "the teaser with the accepted offer: device and value"],
  validUntil: ["wizard", "the wizard's offer step and the teaser with the accepted offer"],
  wizardTitle: ["wizard", "the wizard's dialog name and heading"],
  close: ["payment", "the × of both dialogs (its name) and the Close button of each message state"],
  step: ["wizard", "the wizard's step counter, steps 1 to 3"],
  stepDevice: ["wizard", "the wizard's step 1 heading"],
  stepCondition: ["wizard", "the wizard's step 2 heading"],
  stepOffer: ["wizard", "the wizard's step 3 heading"],
  category: ["wizard", "the wizard's step 1 category label"],
  model: ["wizard", "the wizard's step 1 model label"],
  chooseOne: ["wizard", "the first option of the category and the model select"],
  next: ["wizard", "the wizard's step 1 main button"],
  back: ["wizard", "the wizard's steps 2 and 3 way back"],
  getOffer: ["wizard", "the wizard's step 2 main button"],
  accept: ["wizard", "the wizard's step 3 main button"],
  offerIntro: ["wizard", "the wizard's offer step: value and device"],
  estimate: ["wizard", "the wizard's offer step"],
  loginTitle: ["failures", "the wizard and the payment modal for a shopper not logged in"],
  loginText: ["failures", "the wizard and the payment modal for a shopper not logged in"],
  testMarker: ["wizard", "the wizard's model select: the magic test devices' marker"],
  required: ["wizard", "the wizard's step 2: Get offer with a question unanswered"],
  pickModel: ["wizard", "the wizard's step 1: Next with no model chosen"],
  failed: [
    "failures",
    "the wizard (the catalog answered 503) and the payment modal (the payment start answered 503)",
  ],
  timedOut: [
    "failures",
    "the wizard (no answer to Get offer) and the payment modal (no answer to Pay now), past the SDK's 30 s",
  ],
  payTitle: ["payment", "the payment modal's dialog name and heading"],
  items: ["payment", "the payment modal's table name and its first column"],
  quantity: ["payment", "the payment modal's quantity column"],
  subtotal: ["payment", "the payment modal's cart total"],
  discount: ["payment", "the payment modal's trade-in discount, with the device"],
  left: ["payment", "the payment modal's amount left to pay"],
  howToPay: ["payment", "the payment modal's method choice"],
  card: ["payment", "the payment modal's card method"],
  bank: ["payment", "the payment modal's bank transfer method"],
  payNow: ["payment", "the payment modal's main button"],
  paying: ["payment", "the payment modal's status while the payment waits for the service"],
  paid: ["payment", "the payment modal's status once paid, before the confirmation page"],
  emptyCart: ["payment", "the payment modal with an empty cart (its paragraph empty)"],
  cannotPay: [
    "payment",
    "the payment modal when the trade-in does not fit the cart, and with purchase_data the service refuses",
  ],
  purchaseRejected: ["payment", "the payment modal with purchase_data the service refuses (400)"],
};
