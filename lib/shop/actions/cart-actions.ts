"use server";

import { releaseServicePayment, servicePaymentOpen } from "@service-integration/kit/server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { clientAddress } from "@/lib/auth/client-address";
import { servicePayDeps } from "@/lib/service-adapter/service";
import { requireSessionIdentity } from "@/lib/session/session";
import { sessionCurrency } from "@/lib/session/session-data";
import { requireFormData } from "../action-arguments";
import {
  addToCart,
  MAX_QUANTITY,
  removePromotionCode,
  setCartCurrency,
  setItemQuantity,
} from "../cart";
import { addToCartInput, cartQuantityInput } from "../cart-input";
import { CURRENCIES } from "../money";
import { tryPromotionCode } from "../promotion-attempts";
import { promotionCodeSchema } from "../promotions";
import { safeReturnPath } from "../safe-redirect";

/** What the shopper reads when the cart is locked by an open Service Pay payment. */
const PAYMENT_OPEN =
  "A payment with Service is open for this cart in another window. Finish or cancel it there, or cancel it from your cart, before changing the cart.";

export interface AddToCartState {
  status: "idle" | "added" | "error";
  message: string;
}

export async function addToCartAction(
  _previous: AddToCartState,
  form: FormData,
): Promise<AddToCartState> {
  requireFormData(form);
  const parsed = addToCartInput.safeParse({
    productId: form.get("productId"),
    quantity: form.get("quantity") ?? "1",
  });
  if (!parsed.success) {
    return { status: "error", message: `Choose a quantity from 1 to ${MAX_QUANTITY}.` };
  }
  const session = await requireSessionIdentity();
  if (await servicePaymentOpen(servicePayDeps(), session.sessionId)) {
    return { status: "error", message: PAYMENT_OPEN };
  }
  const result = await addToCart({
    sessionId: session.sessionId,
    currency: sessionCurrency(session),
    ...(session.customerId ? { customerId: session.customerId } : {}),
    ...parsed.data,
  });
  if (!result.ok) return { status: "error", message: result.error };
  revalidatePath("/", "layout");
  return { status: "added", message: "Added to your cart." };
}

/** Changes a cart line's quantity (0 removes it). Bad input changes nothing. */
export async function updateCartItemAction(form: FormData): Promise<void> {
  requireFormData(form);
  const parsed = cartQuantityInput.safeParse({
    itemId: form.get("itemId"),
    quantity: form.get("quantity"),
  });
  if (parsed.success) {
    const session = await requireSessionIdentity();
    // Refused while a payment is open: the cart page says so and offers to cancel it.
    if (!(await servicePaymentOpen(servicePayDeps(), session.sessionId))) {
      await setItemQuantity(session.sessionId, parsed.data.itemId, parsed.data.quantity);
    }
  }
  revalidatePath("/", "layout");
}

export interface PromotionCodeState {
  status: "idle" | "applied" | "error";
  message: string;
}

/** Applies a promotion code typed in the cart (lib/shop/promotions.ts judges it). */
export async function applyPromotionCodeAction(
  _previous: PromotionCodeState,
  form: FormData,
): Promise<PromotionCodeState> {
  requireFormData(form);
  const typed = form.get("code");
  // Bounded before anything reads it: a form field may be any size.
  const parsed = promotionCodeSchema.safeParse(
    typeof typed === "string" ? typed.slice(0, 100) : "",
  );
  if (!parsed.success) {
    return {
      status: "error",
      message: parsed.error.issues[0]?.message ?? "Enter a promotion code.",
    };
  }
  const session = await requireSessionIdentity();
  // The service was shown this cart's total while a payment is open: its discounts stay too.
  if (await servicePaymentOpen(servicePayDeps(), session.sessionId)) {
    return { status: "error", message: PAYMENT_OPEN };
  }
  const result = await tryPromotionCode(session.sessionId, await clientAddress(), parsed.data);
  if (!result.ok) return { status: "error", message: result.error };
  revalidatePath("/", "layout");
  return { status: "applied", message: `${parsed.data} is applied to your cart.` };
}

/** Takes an applied promotion code off the cart. */
export async function removePromotionCodeAction(form: FormData): Promise<void> {
  requireFormData(form);
  const parsed = promotionCodeSchema.safeParse(form.get("code"));
  if (parsed.success) {
    const session = await requireSessionIdentity();
    if (!(await servicePaymentOpen(servicePayDeps(), session.sessionId))) {
      await removePromotionCode(session.sessionId, parsed.data);
    }
  }
  revalidatePath("/", "layout");
}

/** The shopper cancels the open Service Pay payment to change the cart again. */
export async function releaseServicePaymentAction(): Promise<void> {
  const session = await requireSessionIdentity();
  await releaseServicePayment(servicePayDeps(), session.sessionId);
  revalidatePath("/", "layout");
}

/** The shopper switches currency; the open cart switches with it (the cart carries its currency). */
export async function setCurrencyAction(form: FormData): Promise<void> {
  requireFormData(form);
  const currency = z.enum(CURRENCIES).safeParse(form.get("currency"));
  const returnTo = await returnPath(form.get("returnTo"));
  if (currency.success) {
    const session = await requireSessionIdentity();
    // The cart keeps its currency while a payment is open (the service was shown its prices).
    if (!(await servicePaymentOpen(servicePayDeps(), session.sessionId))) {
      session.currency = currency.data;
      await session.save();
      await setCartCurrency(session.sessionId, currency.data);
    }
    revalidatePath("/", "layout");
  }
  redirect(returnTo);
}

/** Back to where the shopper was: an explicit same-site path, else the Referer's path. */
async function returnPath(explicit: FormDataEntryValue | null): Promise<string> {
  if (typeof explicit === "string" && explicit) return safeReturnPath(explicit);
  const referer = (await headers()).get("referer");
  if (!referer) return "/";
  try {
    const url = new URL(referer);
    return safeReturnPath(`${url.pathname}${url.search}`);
  } catch {
    return "/";
  }
}
