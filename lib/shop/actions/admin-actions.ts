"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { isAdminEmail, isAdminLogin, requireAdmin } from "@/lib/auth/admin";
import { clientAddress } from "@/lib/auth/client-address";
import { throttledLogin } from "@/lib/auth/login-throttle";
import { orderWriter } from "@/lib/service-adapter/service";
import { endSession, signInSession } from "@/lib/session/revocation";
import { requireSessionIdentity } from "@/lib/session/session";
import { requireFormData } from "../action-arguments";
import { changeOrderStatus } from "../orders";
import { wellFormedString } from "../well-formed";

export interface AdminLoginState {
  error?: string;
  email?: string;
}

export async function adminLoginAction(
  _previous: AdminLoginState,
  form: FormData,
): Promise<AdminLoginState> {
  requireFormData(form);
  const email = String(form.get("email") ?? "").slice(0, 200);
  const password = String(form.get("password") ?? "").slice(0, 200);
  if (!email || !password) return { error: "Enter the admin email and password.", email };
  const attempt = await throttledLogin(
    "admin",
    email,
    await clientAddress(),
    async () => (isAdminLogin(email, password) ? true : null),
    new Date(),
    async () => isAdminEmail(email),
  );
  if (!attempt.ok) return { error: attempt.message ?? "Wrong admin email or password.", email };
  const session = await requireSessionIdentity();
  await signInSession(session, { admin: true }, "admin_login");
  await session.save();
  redirect("/admin");
}

export async function adminLogoutAction(): Promise<void> {
  // Signing out ends the session on the server: any copy of the cookie is anonymous afterwards.
  const session = await requireSessionIdentity();
  await endSession(session, "admin_sign_out");
  await session.save();
  redirect("/admin/login");
}

export interface StatusChangeState {
  error?: string;
  ok?: boolean;
}

const statusSchema = z.object({
  orderId: wellFormedString().min(1).max(64),
  to: wellFormedString().min(1).max(64),
  note: wellFormedString().max(500).default(""),
});

export async function changeStatusAction(
  _previous: StatusChangeState,
  form: FormData,
): Promise<StatusChangeState> {
  requireFormData(form);
  await requireAdmin();
  const parsed = statusSchema.safeParse({
    orderId: form.get("orderId"),
    to: form.get("to"),
    note: form.get("note") ?? "",
  });
  if (!parsed.success) return { error: "Choose a new status." };
  const result = await changeOrderStatus(orderWriter(), { ...parsed.data, source: "admin" });
  if (!result.ok) return { error: result.error };
  revalidatePath(`/admin/orders/${parsed.data.orderId}`);
  return { ok: true };
}
