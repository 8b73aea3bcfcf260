import "server-only";
import { z } from "zod";
import { demoSettings } from "./config.js";
import type { ShopRoutes } from "./shop-ports.js";

/**
 * The configuration object's optional teaser selectors (contract: Front-end SDK, "optional CSS
 * selectors for teaser injection"): for each teaser type, a CSS selector of the elements the SDK
 * places that teaser in, for pages whose markup the host does not write itself (a theme, a CMS).
 * A host that renders the `.service-teaser` markers (`TeaserSlot`) needs none of them. One that
 * matches nothing places no teaser; one that is no CSS places none either, and the SDK says so in
 * the console: a typo never stops the SDK.
 */
export interface TeaserSelectors {
  /** Home, category and promotion pages. */
  bannerCssSelector?: string;
  /** Product pages and price displays. */
  productWidgetCssSelector?: string;
  /** The cart and the checkout. */
  cartSummaryCssSelector?: string;
  /** The confirmation page. */
  thankYouCssSelector?: string;
}

/**
 * The browser side of the integration's configuration (contract: Front-end SDK, configuration
 * object `window.serviceConfiguration`), built on the server from the environment and handed to
 * the client loader as plain data. Only non-secret values: it is rendered into every page.
 *
 * Decisions (packages/kit/src/README.md, "Browser SDK"):
 * - `merchantId` comes from `SERVICE_MERCHANT_ID` (required in production; elsewhere `m_demo`, the
 *   emulator's seed, config.ts), not from the token response: reading the token would put a
 *   service round trip (or a database read) on every page, and a page must render even when the
 *   service is down.
 * - `products` comes from `SERVICE_PRODUCTS` (outside production `valuations+ep1`: Service Pay on).
 * - The SDK's address is `${SERVICE_ASSETS_URL}/v1/main.js` (Versioning: the `v1` segment).
 * - The teaser selectors (TeaserSelectors) are given in the host's code, not the environment:
 *   where a teaser goes is a matter of the host's pages, as its markers are.
 */
export interface BrowserServiceConfiguration extends TeaserSelectors {
  /** The merchant id the SDK is configured with (SERVICE_MERCHANT_ID). */
  merchantId: string;
  /** `{merchant_callbacks_base}` */
  browserCallbackBase: string;
  /** `{merchant_success_url}` */
  confirmUrl: string;
  /** `valuations`, or `valuations+ep1` with Service Pay. */
  products: string;
  /** Where the SDK module is imported from. Not part of window.serviceConfiguration. */
  sdkUrl: string;
}

const trimmedUrl = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/ }))
  .transform((value) => value.replace(/\/+$/, ""));

const schema = z.object({
  SERVICE_ASSETS_URL: trimmedUrl,
  SERVICE_MERCHANT_ID: z.string().trim().min(1),
  SERVICE_PRODUCTS: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+([+][a-z0-9]+)*$/, "products like valuations or valuations+ep1"),
});

type Env = Record<string, string | undefined>;

/** Where a host serves the two addresses the SDK needs: paths from its base URL. */
export type SdkRoutes = Pick<ShopRoutes, "callbacks" | "confirmation">;

/** Rendered into every page: a selector is one line of bounded length, and absent when blank. */
const MAX_SELECTOR_LENGTH = 500;
const selectorSchema = z
  .string()
  .trim()
  .max(MAX_SELECTOR_LENGTH)
  .regex(/^[^\n\r]*$/, "one line")
  .optional()
  .transform((value) => (value === "" ? undefined : value));
const teaserSelectorsSchema = z.strictObject({
  bannerCssSelector: selectorSchema,
  productWidgetCssSelector: selectorSchema,
  cartSummaryCssSelector: selectorSchema,
  thankYouCssSelector: selectorSchema,
});

const pathSchema = z
  .string()
  .regex(/^\/[^?#\s]*$/, "a path starting with / (no query, fragment or spaces)")
  .transform((value) => value.replace(/\/+$/, ""));

/** What was wrong, by name only (never a value: a secret could be one): each setting, route or
 *  key, and each key that is not one. */
function namesOf(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join("."),
    )
    .join(", ");
}

/**
 * `shopBaseUrl`: the shop's own base URL, the base of both shop addresses; `routes`: where this
 * host serves the merchant callbacks and the confirmation page (ShopRoutes, the adapter's choice).
 * `teasers`: the optional teaser selectors (TeaserSelectors), the host's own choice of where on
 * its pages the SDK places teasers; blank ones are left out. It reads the whole environment: a
 * host builds it once per process and renders that on every page (the shop's adapter:
 * shopBrowserServiceConfiguration).
 */
export function browserServiceConfiguration(
  shopBaseUrl: string,
  routes: SdkRoutes,
  env: Env = process.env,
  teasers: TeaserSelectors = {},
): BrowserServiceConfiguration {
  const paths = z.object({ callbacks: pathSchema, confirmation: pathSchema }).safeParse(routes);
  if (!paths.success) {
    throw new Error(`Invalid shop routes for the service's SDK: ${namesOf(paths.error)}`);
  }
  // An empty variable means "unset", as in config.ts: the demo's value outside production only.
  const present = {
    ...demoSettings(env),
    ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
  };
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const names = namesOf(parsed.error);
    throw new Error(`Invalid browser service configuration (see .env.example): ${names}`);
  }
  const selectors = teaserSelectorsSchema.safeParse(teasers);
  if (!selectors.success) {
    throw new Error(`Invalid teaser selectors for the service's SDK: ${namesOf(selectors.error)}`);
  }
  const v = parsed.data;
  const shop = shopBaseUrl.replace(/\/+$/, "");
  return {
    merchantId: v.SERVICE_MERCHANT_ID,
    browserCallbackBase: `${shop}${paths.data.callbacks}`,
    confirmUrl: `${shop}${paths.data.confirmation}`,
    products: v.SERVICE_PRODUCTS,
    sdkUrl: `${v.SERVICE_ASSETS_URL}/v1/main.js`,
    // Only the selectors given: the object is rendered into every page as it is.
    ...Object.fromEntries(Object.entries(selectors.data).filter(([, value]) => value)),
  };
}
