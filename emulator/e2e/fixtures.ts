// Fixtures for the SDK tests: every test gets its own shop on the bare test merchant (its own
// customer, cart and session hash), so tests run in parallel; every test fails on a console
// error or an uncaught exception in the page.
import { expect, type Locator, type Page, type Route } from "@playwright/test";
import { test as base } from "../../scripts/sdk-release/sdk-coverage";

export type ServiceEvent = { name: string; detail: unknown; page: string };
export type Cart = {
  id: string;
  currency: string;
  items: {
    id: string;
    name: string;
    description: string;
    url: string;
    quantity: number;
    price: number;
    tax: number;
    total: number;
  }[];
  price: number;
  tax: number;
  total: number;
};

export class Shop {
  /** Console errors a test expects (Chrome logs every 4xx the SDK is meant to receive). */
  readonly expectedConsoleErrors: RegExp[] = [];
  /** Every console.warn of the page, in order. */
  readonly warnings: string[] = [];

  constructor(
    readonly page: Page,
    readonly key: string,
  ) {}

  get base(): string {
    return `/__emulator/test-merchant/${this.key}`;
  }

  /** Opens the checkout page and waits for `service-ready`. */
  async open(query = ""): Promise<void> {
    await this.page.goto(`${this.base}/${query ? `?${query}` : ""}`);
    await this.ready();
  }

  async ready(): Promise<void> {
    await this.page.waitForFunction(() =>
      (window as unknown as { __serviceEvents?: ServiceEvent[] }).__serviceEvents?.some(
        (e) => e.name === "service-ready",
      ),
    );
    await expect(this.page.locator("body")).toHaveAttribute("data-ready", "true");
  }

  async setState(state: {
    customer?: unknown;
    cart?: Cart | null;
    careless?: string[];
    addresses?: boolean;
    cacheableShopperData?: boolean;
    negotiatesContent?: boolean;
  }): Promise<void> {
    const response = await this.page.request.put(`${this.base}/state`, { data: state });
    expect(response.status()).toBe(200);
  }

  /** A one-line cart of `total` cents (tax included). */
  cart(total: number, currency = "EUR"): Cart {
    const tax = Math.round((total * 21) / 121);
    return {
      id: `cart-${this.key}-${total}`,
      currency,
      items: [
        {
          id: "sku-x",
          name: "Test item",
          description: "",
          url: "/x",
          quantity: 1,
          price: total - tax,
          tax,
          total,
        },
      ],
      price: total - tax,
      tax,
      total,
    };
  }

  /** Events of the current page, in order. */
  events(): Promise<ServiceEvent[]> {
    return this.page.evaluate(
      () => (window as unknown as { __serviceEvents: ServiceEvent[] }).__serviceEvents,
    );
  }

  /** Events since the first page of this tab (kept in sessionStorage across navigations). */
  eventLog(): Promise<ServiceEvent[]> {
    return this.page.evaluate(() => JSON.parse(sessionStorage.getItem("serviceEventLog") ?? "[]"));
  }

  async eventNames(): Promise<string[]> {
    return (await this.events()).map((e) => e.name);
  }

  teasers(type?: string): Locator {
    return this.page.locator(type ? `[data-service-teaser="${type}"]` : "[data-service-teaser]");
  }

  wizard(): Locator {
    return this.page.getByRole("dialog", { name: "Trade-in valuation" });
  }

  payment(): Locator {
    return this.page.getByRole("dialog", { name: "Pay with Service" });
  }

  /**
   * A valuation through the wizard with the mouse: category, model, the first answer of every
   * question, accept. Model by visible name (magic test models end in "(test)").
   */
  async valuate(category: string, model: string): Promise<void> {
    await this.page.evaluate(() => {
      void (
        window as unknown as { Service: { openValuation(): Promise<void> } }
      ).Service.openValuation();
    });
    const wizard = this.wizard();
    await wizard.getByLabel("Category").selectOption({ label: category });
    await wizard.getByLabel("Model").selectOption({ label: model });
    await wizard.getByRole("button", { name: "Next" }).click();
    for (const group of await wizard.getByRole("group").all()) {
      await group.getByRole("radio").first().check();
    }
    await wizard.getByRole("button", { name: "Get offer" }).click();
    await wizard.getByRole("button", { name: "Accept offer" }).click();
    await expect(wizard).toBeHidden();
  }

  details(product = "ep1"): Promise<{
    mode: string;
    template_name: string;
    label: string;
    info: string;
    extra?: string;
    data?: Record<string, unknown>;
  }> {
    return this.page.evaluate(
      (p) =>
        (
          window as unknown as {
            Service: { paymentOptionDetailsFor(p: string): Promise<never> };
          }
        ).Service.paymentOptionDetailsFor(p),
      product,
    );
  }

  hasActiveTradeIn(): Promise<boolean> {
    return this.page.evaluate(() =>
      (
        window as unknown as { Service: { hasActiveTradeIn(): boolean } }
      ).Service.hasActiveTradeIn(),
    );
  }
}

/**
 * A merchant of this test's own, cloned from m_test in `currency`, with its clock set (the
 * emulator's clock API: `{ now, freeze }` or `{ seconds }` ahead; contract: Valuation validity,
 * the service's clock dates every offer). Open the shop with `merchant=<id>` to use it.
 */
export async function ownMerchant(
  page: Page,
  options: {
    currency: "EUR" | "GBP";
    name: string;
    clock: { now: string; freeze: boolean } | { seconds: number };
  },
): Promise<string> {
  const request = page.request;
  // m_test exists once the test merchant is first used; an empty patch makes sure of it.
  expect((await request.put("/__emulator/test-merchant/merchant", { data: {} })).status()).toBe(
    200,
  );
  const id = `m_${options.name}_${Date.now()}`;
  const origin = new URL(test.info().project.use.baseURL ?? "").origin;
  const clone = await request.post("/__emulator/merchants/m_test/clone", {
    data: { id, currency: options.currency, allowed_origins: [origin] },
  });
  expect(clone.status(), await clone.text()).toBe(201);
  const clock = await request.post(`/__emulator/merchants/${id}/clock`, { data: options.clock });
  expect(clock.status(), await clock.text()).toBe(200);
  return id;
}

/**
 * The page's calls to `path` (not their CORS preflights): the first `plan.length` get, in turn,
 * a 503 ("error"), no answer until released ("hold"), or a 200 with an empty object ("empty");
 * the later ones go through.
 */
export async function faults(page: Page, path: RegExp, plan: ("error" | "hold" | "empty")[]) {
  const held: Route[] = [];
  let reached = 0;
  await page.route(
    (url) => path.test(url.pathname),
    async (route) => {
      const how = plan[reached];
      if (route.request().method() === "OPTIONS" || how === undefined) return route.fallback();
      reached += 1;
      if (how === "hold") {
        held.push(route);
        return;
      }
      const origin = route.request().headers().origin;
      await route.fulfill({
        status: how === "empty" ? 200 : 503,
        contentType: "application/json",
        headers: origin ? { "access-control-allow-origin": origin } : {},
        body: JSON.stringify(
          how === "empty"
            ? {}
            : { error: "service_unavailable", error_description: "By the test." },
        ),
      });
    },
  );
  return {
    reached: () => reached,
    /** Lets the held calls go (the SDK gave them up already: their answer is dropped). */
    release: () => Promise.all(held.map((route) => route.abort("timedout").catch(() => undefined))),
  };
}

/** Contract, SDK browser events: the detail is an "object with message", and a message says
 *  something (the wording is the SDK's own). */
export const A_MESSAGE = expect.stringMatching(/\S/);

/** Past the SDK's own time limit for one call to the service (30 s, emulator/sdk/api.ts). */
export const PAST_THE_TIME_LIMIT = "00:31";

export const test = base.extend<{ shop: Shop }>({
  shop: async ({ page }, use, testInfo) => {
    const problems: string[] = [];
    const key = `${testInfo.testId}-${testInfo.repeatEachIndex}-${testInfo.retry}`;
    const shop = new Shop(page, key.replace(/[^\w-]/g, ""));
    page.on("console", (message) => {
      if (message.type() === "warning") shop.warnings.push(message.text());
      if (message.type() !== "error") return;
      const url = message.location().url;
      if (shop.expectedConsoleErrors.some((re) => re.test(`${message.text()} ${url}`))) return;
      // Chrome itself logs every 4xx fetch; a 404 from shopper_data is the contract's way of
      // saying "anonymous shopper", answered by the merchant, not an SDK error.
      if (/\/shopper_data$/.test(url) && message.text().includes("404")) return;
      problems.push(`console.error: ${message.text()} (${url})`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await use(shop);
    expect(problems, "the SDK adds no console errors to the page").toEqual([]);
  },
});

export { expect };
