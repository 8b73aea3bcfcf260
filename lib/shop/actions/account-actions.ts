"use server";

import { z } from "zod";
import { requireSessionIdentity } from "@/lib/session/session";
import { attachCustomer } from "../cart";
import { authenticateCustomer } from "../customers";
import { safeReturnPath } from "../safe-redirect";

export interface LoginState {
  error?: string;
  fieldErrors?: { email?: string; password?: string };
  email?: string;
  /** Set once logged in: where the browser goes next, with a full page load (see below). */
  redirectTo?: string;
}

const loginSchema = z.object({
  email: z.email("Enter your email address.").max(200),
  password: z.string().min(1, "Enter your password.").max(200),
});

/**
 * Logging in keeps the session id and the cart: only `customerId` is added to the session and
 * the open cart is tied to the customer.
 *
 * Login answers where to go instead of redirecting: the service's SDK reads the shopper once
 * per page load and has no refresh method (contract, Front-end SDK), so the form leaves with a
 * full page load (`location.assign`) and the next page's SDK sees the new shopper. A
 * server-action redirect would be a client-side navigation that keeps the old SDK. (Logging out
 * is a plain form post to /account/logout, answered with a redirect: a full page load too.)
 */
export async function loginAction(_previous: LoginState, form: FormData): Promise<LoginState> {
  const email = String(form.get("email") ?? "").trim();
  const parsed = loginSchema.safeParse({ email, password: form.get("password") ?? "" });
  if (!parsed.success) {
    const fieldErrors: LoginState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as "email" | "password";
      fieldErrors[key] ??= issue.message;
    }
    return { fieldErrors, email };
  }
  const customer = await authenticateCustomer(parsed.data.email, parsed.data.password);
  if (!customer) return { error: "That email and password do not match an account.", email };

  const session = await requireSessionIdentity();
  session.customerId = customer.id;
  await session.save();
  await attachCustomer(session.sessionId, customer.id);
  return { redirectTo: safeReturnPath(form.get("next"), "/account") };
}

/** Forgets the shopper of this session (keeps the session and its cart, detached). */
export async function logOutShopper(): Promise<void> {
  const session = await requireSessionIdentity();
  delete session.customerId;
  await session.save();
  await attachCustomer(session.sessionId, null);
}
