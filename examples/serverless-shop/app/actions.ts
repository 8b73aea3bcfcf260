"use server";

import { checkoutDetailsFromForm } from "@service-integration/kit";
import {
  cardCheckoutTradeInStep,
  releaseServicePayment,
  servicePaymentOpen,
} from "@service-integration/kit/server";
import { currentShopper } from "@sls/lib/current";
import { db } from "@sls/lib/db";
import { cardPayments } from "@sls/lib/schema";
import { createOrder } from "@sls/lib/service/callbacks";
import { checkoutBody, formFields } from "@sls/lib/service/checkout";
import { service } from "@sls/lib/service/wiring";
import { addToCart, shopBaseUrl } from "@sls/lib/shop";
import { and, eq, isNull } from "drizzle-orm";
import { redirect } from "next/navigation";

export async function addToCartAction(form: FormData): Promise<void> {
  const { sessionId, customerId } = await currentShopper();
  // The cart is locked while a Service Pay payment is open (what the service was shown is paid).
  if (await servicePaymentOpen(service().servicePay, sessionId)) redirect("/?gesperrt=1");
  await addToCart(sessionId, String(form.get("product") ?? "").slice(0, 100), undefined, {
    customerId: customerId ?? null,
  });
  redirect("/");
}

export async function cancelPaymentAction(): Promise<void> {
  await releaseServicePayment(service().servicePay, (await currentShopper()).sessionId);
  redirect("/");
}

class Refused extends Error {}

/**
 * The card order, after the card stand-in confirmed the payment in the browser: placed paid only
 * against that confirmation (this session's, unused, for exactly the order's total), which it
 * uses up in the same transaction; then the trade-in registered (go-live scenario 2).
 */
export async function placeCardOrder(form: FormData): Promise<string | null> {
  const shopper = await currentShopper();
  const details = checkoutBody.safeParse(checkoutDetailsFromForm(form, formFields));
  if (!details.success) return "Bitte prüfen Sie die Adressfelder.";
  const paymentId = String(form.get("card_payment") ?? "").slice(0, 100);
  const { sessionId, customerId = null } = shopper;
  const columns = { sessionId, customerId, status: "paid", paymentMethod: "card" };
  let orderId: string;
  try {
    orderId = await db().transaction(async (q) => {
      const [payment] = await q
        .select()
        .from(cardPayments)
        .where(
          and(
            eq(cardPayments.id, paymentId),
            eq(cardPayments.sessionId, sessionId),
            isNull(cardPayments.orderId),
          ),
        )
        .for("update");
      if (!payment) throw new Refused("Die Kartenzahlung wurde nicht bestätigt.");
      const order = await createOrder(q, {
        details: details.data,
        columns,
        shopBaseUrl: shopBaseUrl(),
      });
      if (!order) throw new Refused("Ihr Warenkorb ist leer.");
      if (order.total !== payment.amount)
        throw new Refused("Der Warenkorb hat sich geändert: Bitte erneut bezahlen.");
      await q
        .update(cardPayments)
        .set({ orderId: order.id })
        .where(eq(cardPayments.id, payment.id));
      return order.id;
    });
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
  // Go-live scenario 2: the trade-in by register-purchase. The shopper waits at most 8 s; the
  // rest is handed to Next's after(), so this host, which freezes the function after the
  // response, still finishes it (a failed step stays queued for the scheduler's retry job).
  await cardCheckoutTradeInStep(service().tradeIns, { orderId, shopper });
  redirect("/kasse/bestaetigung");
}
