"use server";

import { z } from "zod";
import { clientAddress } from "@/lib/auth/client-address";
import { throttledLogin } from "@/lib/auth/login-throttle";
import { endSession, signInSession } from "@/lib/session/revocation";
import { requireSessionIdentity } from "@/lib/session/session";
import { requireFormData } from "../action-arguments";
import { attachCustomer } from "../cart";
import { authenticateCustomer, customerExists } from "../customers";
import { safeReturnPath } from "../safe-redirect";
import { wellFormedString } from "../well-formed";

export interface LoginState {
  error?: string;
  fieldErrors?: { email?: string; password?: string };
  email?: string;
  /** Set once logged in: where the browser goes next, with a full page load (see below). */
  redirectTo?: string;
}

const loginSchema = z.object({
  email: z.email("Enter your email address.").max(200),
  password: wellFormedString().min(1, "Enter your password.").max(200),
});

/**
 * Logging in as a guest keeps the service identity (session id and salt: the trade-in valued
 * before login survives) and the cart; logging in over a session signed in as someone else starts
 * a new one (signInSession). Either way the cookie's token is replaced and the old one revoked, so
 * a copy of the cookie taken before login is anonymous afterwards
 * (docs/decisions/session-identity.md).
 * Attempts are throttled per account and per client address.
 *
 * Login answers where to go instead of redirecting: the service's SDK reads the shopper once
 * per page load and has no refresh method (contract, Front-end SDK), so the form leaves with a
 * full page load (`location.assign`) and the next page's SDK sees the new shopper. A
 * server-action redirect would be a client-side navigation that keeps the old SDK. (Logging out
 * is a plain form post to /account/logout, answered with a redirect: a full page load too.)
 */
export async function loginAction(_previous: LoginState, form: FormData): Promise<LoginState> {
  requireFormData(form);
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
  const attempt = await throttledLogin(
    "shopper",
    parsed.data.email,
    await clientAddress(),
    () => authenticateCustomer(parsed.data.email, parsed.data.password),
    new Date(),
    () => customerExists(parsed.data.email),
  );
  if (!attempt.ok) {
    return {
      error: attempt.message ?? "That email and password do not match an account.",
      email,
    };
  }
  const customer = attempt.value;

  const session = await requireSessionIdentity();
  await signInSession(session, { customerId: customer.id }, "login");
  await session.save();
  await attachCustomer(session.sessionId, customer.id);
  return { redirectTo: safeReturnPath(form.get("next"), "/account") };
}

/**
 * Logging out ends the session on the server (its token is revoked, so any copy of the cookie is
 * anonymous) and starts a new one with a new identity: nothing of the signed-in session (cart,
 * trade-in, checkout details) is left to whoever uses the browser next. The caller answers with
 * a redirect, so the browser loads the next page in full.
 */
export async function logOutShopper(): Promise<void> {
  const session = await requireSessionIdentity();
  const ended = session.sessionId;
  await endSession(session, "logout");
  await session.save();
  await attachCustomer(ended, null);
}
