import type { Metadata } from "next";
import { safeReturnPath } from "@/lib/shop/safe-redirect";
import { LoginForm } from "@/lib/ui/login-form";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeReturnPath((await searchParams).next, "/account");
  return (
    <div className="narrow">
      <h1>Log in</h1>
      <p className="muted">
        Demo shopper: <strong>shopper@example.com</strong> with password{" "}
        <strong>shopper-demo-password</strong>. Your cart stays with you when you log in.
      </p>
      <LoginForm next={next} />
    </div>
  );
}
