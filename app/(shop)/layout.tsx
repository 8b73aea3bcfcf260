import type { ReactNode } from "react";
import { getConfig } from "@/lib/config";
import { browserServiceConfiguration } from "@/lib/service/sdk-config";
import { ServiceSdkLoader } from "@/lib/service/sdk-loader";
import { shopRoutes } from "@/lib/service-adapter/checkout-wiring";
import { getPageSession } from "@/lib/session/session";
import { IntegrationSlot, inspectorPlacement } from "@/lib/ui/integration-slot";
import { SiteFooter } from "@/lib/ui/site-footer";
import { SiteHeader } from "@/lib/ui/site-header";

export default async function ShopLayout({ children }: { children: ReactNode }) {
  const [session, placement] = await Promise.all([getPageSession(), inspectorPlacement()]);
  return (
    <>
      {/* data-inspector: the docked inspector's room is made before any script runs. */}
      <div className="shop-frame" data-inspector={placement ?? undefined}>
        <SiteHeader session={session} />
        <main id="main" className="page">
          {children}
        </main>
        <SiteFooter />
      </div>
      <ServiceSdkLoader
        config={browserServiceConfiguration(getConfig().SHOP_BASE_URL, shopRoutes)}
      />
      <IntegrationSlot placement={placement} />
    </>
  );
}
