"use server";

import { checkoutBodySchema } from "@mini/lib/adapter/checkout-input";
import { productUrl } from "@mini/lib/adapter/orders";
import { servicePayDeps, tradeInDeps } from "@mini/lib/adapter/service";
import { miniFormFields } from "@mini/lib/adapter/wiring";
import { currentSession } from "@mini/lib/current";
import { transaction } from "@mini/lib/db";
import { addToCart, createOrderFromCart } from "@mini/lib/shop";
import { checkoutDetailsFromForm } from "@service-integration/kit";
import {
  applyTradeInAfterCardPayment,
  releaseServicePayment,
  servicePaymentOpen,
} from "@service-integration/kit/server";
import { redirect } from "next/navigation";

export async function addToCartAction(form: FormData): Promise<void> {
  const session = await currentSession();
  // The cart is locked while a Service Pay payment is open (what the service was shown is paid).
  if (await servicePaymentOpen(servicePayDeps(), session.sessionId)) redirect("/?locked=1");
  const productId = String(form.get("product") ?? "");
  await transaction(() => addToCart(session.sessionId, productId));
  redirect("/");
}

export async function cancelPaymentAction(): Promise<void> {
  await releaseServicePayment(servicePayDeps(), (await currentSession()).sessionId);
  redirect("/");
}

/** The fake card: charged at once, the order paid, then the trade-in registered (scenario 2). */
export async function payByCardAction(_: string | null, form: FormData): Promise<string | null> {
  const session = await currentSession();
  const details = checkoutBodySchema.safeParse(checkoutDetailsFromForm(form, miniFormFields));
  if (!details.success) return "Check the address fields.";
  const order = await transaction(() =>
    createOrderFromCart({
      sessionId: session.sessionId,
      customerId: session.customerId ?? null,
      email: details.data.email,
      details: details.data,
      paymentMethod: "card",
      status: "paid",
      valuation: {
        valuationState: null,
        valuationItemId: null,
        valuationValue: null,
        valuationCurrency: null,
        valuationNote: null,
      },
      note: "paid by card",
      productUrl,
    }),
  );
  if (!order) return "Your cart is empty.";
  await applyTradeInAfterCardPayment(tradeInDeps(), { orderId: order.id, shopper: session });
  redirect("/checkout/confirmation");
}
