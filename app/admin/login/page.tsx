import type { Metadata } from "next";
import { AdminLoginForm } from "@/lib/ui/admin-forms";

export const metadata: Metadata = { title: "Sign in" };

export default function AdminLoginPage() {
  return (
    <div className="narrow">
      <h1>Back office sign-in</h1>
      <p className="muted">Credentials come from ADMIN_EMAIL and ADMIN_PASSWORD (see .env).</p>
      <AdminLoginForm />
    </div>
  );
}
