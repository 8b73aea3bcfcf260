import { ServiceSdkLoader } from "@service-integration/kit/react";
import { browserServiceConfiguration } from "@service-integration/kit/server";
import { currentShopper } from "@sls/lib/current";
import { routes } from "@sls/lib/service/checkout";
import { shopBaseUrl } from "@sls/lib/shop";
import type { ReactNode } from "react";
import "./shop.css";

export const dynamic = "force-dynamic";

export default async function Layout({ children }: { children: ReactNode }) {
  const shopper = await currentShopper();
  return (
    <html lang="de">
      <body>
        <nav className="kopf">
          <a href="/">Kiosk</a>
          <a href="/kasse">Zur Kasse</a>
          {shopper.customerId ? (
            <form method="post" action="/konto">
              <span data-testid="angemeldet">{shopper.name}</span>{" "}
              <button type="submit" name="action" value="abmelden">
                Abmelden
              </button>
            </form>
          ) : (
            <a href="/anmelden">Anmelden</a>
          )}
        </nav>
        {/* The SDK on every page (contract: Front-end SDK); the home page's banner by the
            configuration's teaser selector, the other teasers by .service-teaser markers. */}
        <ServiceSdkLoader
          config={browserServiceConfiguration(shopBaseUrl(), routes, process.env, {
            bannerCssSelector: "section.aktion",
          })}
        />
        <main>{children}</main>
      </body>
    </html>
  );
}
