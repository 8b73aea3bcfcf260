import "server-only";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { getShopSession } from "@/lib/session/session";
import { safeEqual } from "./password";

/** Admin credentials come from ADMIN_EMAIL / ADMIN_PASSWORD; compared in constant time. */
export function isAdminLogin(email: string, password: string): boolean {
  const config = getConfig();
  const emailOk = safeEqual(email.trim().toLowerCase(), config.ADMIN_EMAIL.toLowerCase());
  const passwordOk = safeEqual(password, config.ADMIN_PASSWORD);
  return emailOk && passwordOk;
}

/** Whether this is the admin's email (the login throttle's `accountExists`). */
export function isAdminEmail(email: string): boolean {
  return safeEqual(email.trim().toLowerCase(), getConfig().ADMIN_EMAIL.toLowerCase());
}

/** For every back-office page and action: redirects to the admin login when not signed in. */
export async function requireAdmin(): Promise<void> {
  const session = await getShopSession();
  if (session.admin !== true) redirect("/admin/login");
}
