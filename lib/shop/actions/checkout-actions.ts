"use server";

import { cardCheckoutTradeInStep } from "@service-integration/kit/server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { orderWriter, tradeInDeps } from "@/lib/service-adapter/service";
import { shopSleep } from "@/lib/service-adapter/shop-clock";
import { requireSessionIdentity } from "@/lib/session/session";
import { requireFormData } from "../action-arguments";
import { type FieldErrors, parseCheckoutForm } from "../checkout-input";
import { placeCardOrder } from "../orders";

export interface CheckoutState {
  formError?: string;
  errors?: FieldErrors;
  /** what the shopper typed, to refill the form (never the card number or security code) */
  values?: Record<string, string>;
  /** nothing left to buy: no card to enter again */
  emptyCart?: true;
}

const NOT_ECHOED = new Set(["card_number", "card_cvc"]);

function echo(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !key.startsWith("$") && !NOT_ECHOED.has(key)) {
      values[key] = value.slice(0, 300);
    }
  }
  return values;
}

export async function checkoutAction(
  _previous: CheckoutState,
  form: FormData,
): Promise<CheckoutState> {
  requireFormData(form);
  const parsed = parseCheckoutForm(form);
  if (!parsed.ok) {
    return {
      formError: "Please correct the highlighted fields.",
      errors: parsed.errors,
      values: echo(form),
    };
  }
  if (parsed.input.paymentMethod !== "card") {
    // The service's payment option submits through its own modal (contract: the form submit
    // handler prevents the default submit and calls openPayment()); a plain post of it is refused.
    return { formError: "Choose a payment method to continue.", values: echo(form) };
  }
  const session = await requireSessionIdentity();
  const result = await placeCardOrder(orderWriter(), {
    sessionId: session.sessionId,
    customerId: session.customerId ?? null,
    input: parsed.input,
    shopBaseUrl: getConfig().SHOP_BASE_URL,
  });
  if (!result.ok) {
    return {
      formError: result.error,
      values: echo(form),
      ...(result.emptyCart ? { emptyCart: true as const } : {}),
    };
  }
  // Go-live scenario 2: the card payment is done; apply the trade-in, if any, by registering the
  // purchase. It never undoes the order; the confirmation page tells the shopper the outcome.
  // The shopper waits at most 8 s (on the shop's clock, which a test build's suite can move); a
  // slower service finishes the step after the response (the kit hands it to Next's after(), so
  // a serverless host does not freeze it midway).
  await cardCheckoutTradeInStep(
    tradeInDeps(),
    { orderId: result.orderId, shopper: session },
    { sleep: shopSleep },
  );
  // The header's cart badge lives in the shared layout: refresh it along with the page.
  revalidatePath("/", "layout");
  redirect("/checkout/confirmation");
}
