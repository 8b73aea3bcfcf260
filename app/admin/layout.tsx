import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getPageSession } from "@/lib/session/session";
import { adminLogoutAction } from "@/lib/shop/actions/admin-actions";
import { Link } from "@/lib/ui/link";

export const metadata: Metadata = {
  title: { default: "Back office", template: "%s · Back office" },
};

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const session = await getPageSession();
  return (
    <>
      <header className="site-header site-header--admin">
        <div className="site-header__bar site-header__bar--wide">
          <Link href="/admin" className="brand">
            Circuit &amp; Co. back office
          </Link>
          <div className="site-header__tools">
            <Link href="/">Shop</Link>
            {session.admin ? (
              <form action={adminLogoutAction}>
                <button type="submit" className="button button--link">
                  Sign out
                </button>
              </form>
            ) : null}
          </div>
        </div>
      </header>
      <main id="main" className="page page--wide">
        {children}
      </main>
    </>
  );
}
