import type { ReactNode } from "react";
import { getShopSession } from "@/lib/session/session";
import { SiteFooter } from "@/lib/ui/site-footer";
import { SiteHeader } from "@/lib/ui/site-header";

export default async function ShopLayout({ children }: { children: ReactNode }) {
  const session = await getShopSession();
  return (
    <>
      <SiteHeader session={session} />
      <main id="main" className="page">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
