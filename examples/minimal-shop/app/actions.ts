"use server";

import { currentSession } from "@mini/lib/current";
import { db } from "@mini/lib/db";
import { checkoutBody, createOrder } from "@mini/lib/service/callbacks";
import { formFields } from "@mini/lib/service/checkout";
import { service } from "@mini/lib/service/wiring";
import { addToCart, shopBaseUrl } from "@mini/lib/shop";
import { sqliteTransaction } from "@service-integration/drizzle-adapter/sqlite";
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
  if (await servicePaymentOpen(service().servicePay, session.sessionId)) redirect("/?locked=1");
  await addToCart(db(), session.sessionId, String(form.get("product") ?? "").slice(0, 100));
  redirect("/");
}

export async function cancelPaymentAction(): Promise<void> {
  await releaseServicePayment(service().servicePay, (await currentSession()).sessionId);
  redirect("/");
}

/** The fake card: charged at once, the order paid, then the trade-in registered (scenario 2). */
export async function payByCardAction(_: string | null, form: FormData): Promise<string | null> {
  const session = await currentSession();
  const details = checkoutBody.safeParse(checkoutDetailsFromForm(form, formFields));
  if (!details.success) return "Check the address fields.";
  const { sessionId, customerId = null } = session;
  const columns = { sessionId, customerId, status: "paid", paymentMethod: "card" };
  const order = { details: details.data, columns, shopBaseUrl: shopBaseUrl() };
  const orderId = await sqliteTransaction(db(), (q) => createOrder(q, order));
  if (!orderId) return "Your cart is empty.";
  await applyTradeInAfterCardPayment(service().tradeIns, { orderId, shopper: session });
  redirect("/checkout/confirmation");
}
