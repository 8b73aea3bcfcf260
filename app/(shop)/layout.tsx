import { ServiceSdkLoader } from "@service-integration/kit/react";
import type { ReactNode } from "react";
import { shopBrowserServiceConfiguration } from "@/lib/service-adapter/service";
import { getPageVisitor } from "@/lib/session/page-visitor";
import { catalogVersion } from "@/lib/shop/catalog";
import { shopperSummary } from "@/lib/shop/shopper-summary";
import { IntegrationSlot, inspectorPlacement } from "@/lib/ui/integration-slot";
import { SiteFooter } from "@/lib/ui/site-footer";
import { SiteHeader } from "@/lib/ui/site-header";

export default async function ShopLayout({ children }: { children: ReactNode }) {
  const visitor = await getPageVisitor();
  const placement =
    visitor.kind === "catalog-render" ? visitor.inspector : await inspectorPlacement();
  const shopper = visitor.kind === "shopper" ? await shopperSummary(visitor.session) : null;
  // A catalog render names the catalog it was made from: the page is stored under that version.
  const renderedFrom = visitor.kind === "catalog-render" ? await catalogVersion() : undefined;
  return (
    <>
      {/* data-inspector: the docked inspector's room is made before any script runs. */}
      <div
        className="shop-frame"
        data-inspector={placement ?? undefined}
        data-catalog-version={renderedFrom}
      >
        <SiteHeader currency={visitor.currency} shopper={shopper} />
        <main id="main" className="page">
          {children}
        </main>
        <SiteFooter />
      </div>
      <ServiceSdkLoader config={shopBrowserServiceConfiguration()} />
      <IntegrationSlot placement={placement} />
    </>
  );
}
