// The staging selection: the tests a release run makes without the bundled emulator
// (`--no-emulator`, a staging service), and the subset the mutation run (./mutants.ts) measures
// that seat with. One definition, so the two cannot drift apart.
import type { ReleaseOptions } from "./run";

/**
 * The storefront suite, every test, with SERVICE_FIXTURE=none: the fixtures skip, each with its
 * reason, the tests that need the service's control API, its magic test devices, or what such a
 * test left behind (e2e/support/service-fixture.ts). No title filter: a tag is not what skips.
 * The SDK page suite is not in it: its test page is the bundled emulator's own.
 */
export const STAGING_SELECTION = {
  suites: ["storefront"],
  withoutServiceFixture: true,
} as const satisfies Partial<ReleaseOptions>;

/**
 * The storefront tests a release run leaves out: they run in `npm test` as a step of their own
 * ("the shop's own journeys", scripts/test.mjs), not in the SDK team's release suite. Each entry
 * is a test file, a describe title or a test title: journeys a candidate SDK cannot change the
 * outcome of (the shop's own features, its back office, what goes between the shop's server and
 * the service's), or that test something other than the SDK. Anything not listed is in the release run, so
 * a new test file costs the SDK team time, never power. Matched against the full title Playwright
 * matches a project's `grep` against ("<file> <describe titles> <title> <tags>").
 */
export const SHOP_OWN: readonly { match: string; why: string }[] = [
  {
    match: "security.e2e.ts",
    why: "sessions, login throttle, headers, body limits, redirects, production settings: the shop's",
  },
  {
    match: "checkout-failures.e2e.ts",
    why: "card declines, form validation, cart edits, the cookie",
  },
  { match: "shop-journey.e2e.ts", why: "browsing, search, a card order and the back office" },
  { match: "catalog-pages.e2e.ts", why: "stored catalog pages and their policy hashes" },
  {
    match: "post-purchase.e2e.ts",
    why: "post-purchase updates and reconciliation: server to server",
  },
  {
    match: "integration-inspector.e2e.ts",
    why: "the shop's developer drawer (the SDK's events it lists are asserted in the SDK journeys)",
  },
  { match: "phone.e2e.ts", why: "the shop's checkout and inspector at 390 px" },
  {
    match: "accessibility.e2e.ts",
    why: "the shop's pages (the SDK's surfaces: the SDK page suite)",
  },
  {
    match: "service-webhooks.e2e.ts",
    why: "the order webhook: from the service to the shop, no SDK between (the release run's readiness report still checks the endpoint)",
  },
  { match: "webhook-storms.e2e.ts", why: "the order webhook's storms, over HTTP" },
  // The card checkout's server side with the service: register-purchase and the OAuth tokens.
  // ("429 and 503 during checkout" stays: the release run's readiness report judges the shop's
  // backoff, api.backoff, on its traffic.)
  {
    match: "a slow service: the checkout does not wait for it",
    why: "register-purchase's time limit",
  },
  { match: "an access token that expires mid-checkout", why: "the shop's OAuth token renewal" },
  { match: "a refresh token that expired too", why: "the shop's OAuth login again" },
  {
    match: "the raw session id reaches the service nowhere in scenario 1",
    why: "the shop's session hash; the release run's readiness report checks every journey's raw session id against the service's journal",
  },
  {
    match: "with Service Pay chosen no other payment runs",
    why: "the kit's payment option keeping the shop's own payment handlers from the submit: the shop's page, not the SDK",
  },
  {
    match: "demo-guide.e2e.ts",
    why: "the sales guide's sentences and amounts: a candidate SDK's new wording must not fail the shop's guide",
  },
  {
    // the describe title of e2e/support/service-variants.ts (the default reading stays in)
    match: "service variant: ",
    why: "the shop's journeys once more per reading of the service's contract: the service varies, not the SDK",
  },
];

/** SHOP_OWN as one regular expression (Playwright's --grep and --grep-invert). */
export function shopOwnPattern(): string {
  return SHOP_OWN.map(({ match }) => match.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
}

/**
 * The storefront project's filter (playwright.config.ts) for E2E_SELECTION: "release", the
 * release run's journeys (everything but SHOP_OWN, and E2E_GREP_INVERT: `mutants:sdk --skip`);
 * "shop-own", SHOP_OWN alone; unset, every test. A project's own filter, not the command line's
 * --grep: the readiness project depends on the storefront one, and Playwright runs a dependency's
 * tests whatever the command line's filter.
 */
export function storefrontSelection(env: Record<string, string | undefined>): {
  grep?: RegExp;
  grepInvert?: RegExp;
} {
  const own = shopOwnPattern();
  switch (env.E2E_SELECTION) {
    case undefined:
    case "":
      return env.E2E_GREP_INVERT ? { grepInvert: new RegExp(env.E2E_GREP_INVERT) } : {};
    case "release":
      return {
        grepInvert: new RegExp([own, env.E2E_GREP_INVERT].filter(Boolean).join("|")),
      };
    case "shop-own":
      return { grep: new RegExp(own) };
    default:
      throw new Error(`E2E_SELECTION must be "release" or "shop-own", not "${env.E2E_SELECTION}"`);
  }
}
