import { currentSession } from "@mini/lib/current";
import { shopBaseUrl } from "@mini/lib/service/callbacks";
import { routes } from "@mini/lib/service/checkout";
import { ServiceSdkLoader } from "@service-integration/kit/react";
import { browserServiceConfiguration } from "@service-integration/kit/server";
import type { ReactNode } from "react";

export const dynamic = "force-dynamic";

const css = `body{font-family:system-ui,sans-serif;max-width:48rem;margin:1rem auto;padding:0 1rem}
nav{display:flex;gap:1rem;align-items:center}label{display:block;margin:.3rem 0}
.service-pay-option,.card-option{display:flex;gap:.5rem;margin:.5rem 0}`;

export default async function Layout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  return (
    <html lang="en">
      <body>
        <style>{css}</style>
        <nav>
          <a href="/">Minimal shop</a>
          <a href="/checkout">Checkout</a>
          {session.customerId ? (
            <form method="post" action="/session">
              <button type="submit" name="action" value="signout">
                Sign out
              </button>
            </form>
          ) : (
            <a href="/login">Sign in</a>
          )}
        </nav>
        {/* The SDK on every page (contract: Front-end SDK). */}
        <ServiceSdkLoader config={browserServiceConfiguration(shopBaseUrl(), routes)} />
        <main>{children}</main>
      </body>
    </html>
  );
}
