import type { ReactNode } from "react";
import { getConfig } from "@/lib/config";
import { browserServiceConfiguration } from "@/lib/service/sdk-config";
import { ServiceSdkLoader } from "@/lib/service/sdk-loader";
import { getShopSession } from "@/lib/session/session";
import { IntegrationSlot } from "@/lib/ui/integration-slot";
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
      <ServiceSdkLoader config={browserServiceConfiguration(getConfig().SHOP_BASE_URL)} />
      <IntegrationSlot />
    </>
  );
}
