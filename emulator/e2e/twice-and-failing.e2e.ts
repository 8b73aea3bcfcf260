// Derived from the contract, not from mutants: every shopper action the SDK handles done twice in
// quick succession has exactly one effect, and every call the SDK makes failing (an error status,
// or no answer at all) never turns into a success the shopper or the merchant is told about.
//
// | shopper action (Front-end SDK)            | done twice here                       | one effect, checked as        |
// |-------------------------------------------|---------------------------------------|-------------------------------|
// | open the wizard (openValuation, a teaser) | two calls in a row; a double click    | one dialog, one catalog call  |
// | get an offer ("Get offer")                | double click                          | one POST /valuations          |
// | accept it ("Accept offer")                | double click                          | one accept, one valuation-updated |
// | select / unselect Service Pay             | updatePaymentSelected(true) × 2, (false) × 2 | one selected, one unselected |
// | pay ("Pay now")                           | double click; two clicks while the first waits | one start, one complete, one ready-to-place-order, one completed, one order |
// | close (×, Escape)                         | double click on ×; Escape twice       | one service-modal-closed      |
//
// | call the SDK makes               | when it matters        | failing (503 / no answer) must leave            |
// |----------------------------------|------------------------|-------------------------------------------------|
// | shopper_data (merchant)          | start-up               | service-ready, call-to-action teasers, no valuation event |
// | /sdk/v1/init                     | start-up               | the same, with the shop still usable            |
// | observations                     | all along              | nothing the shopper sees changes (payment still works) |
// | catalog                          | the wizard opens       | an alert, no device step; opening again works   |
// | valuations                       | "Get offer"            | an alert, no offer; again: one offer            |
// | accept                           | "Accept offer"         | an alert, no valuation-updated, no active trade-in; again: one |
// | purchase_data (merchant)         | the payment modal opens| an alert, no "Pay now"                          |
// | payment-option                   | the payment modal opens| an alert, no "Pay now"                          |
// | payments start                   | "Pay now"              | no ready-to-place-order, no completed, no redirect; again: once |
// | payments complete                | "Pay now"              | no completed, no "Payment completed", no redirect, the service's order pending; again: once |
//
// "No answer" here is a call held open (the SDK must not claim anything while it waits), then
// dropped by the network as a timed-out connection. The SDK's own time limit per call (30 s,
// emulator/sdk/api.ts) is checked by the storefront's journey that moves the page's clock past it.
// Faults are made in this page's network (page.route), not with the emulator's fault rules: the
// SDK page's tests share one emulator and one test merchant, so a rule would hit a parallel test.
// The storefront's journeys (e2e/service-sdk-twice-and-failing.e2e.ts) use the emulator's faults.
import type { Page, Request, Route } from "@playwright/test";
import { expect, type Shop, test } from "./fixtures";

const SMALL = "Test phone: offer of 10.00 (test)";

/** The SDK's calls to the service and to the merchant, as the browser sent them. */
function callsOf(page: Page) {
  const seen: string[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (request.method() === "OPTIONS") return;
    if (url.pathname.startsWith("/sdk/v1/") || /\/(shopper|purchase)_data$/.test(url.pathname))
      seen.push(
        `${request.method()} ${url.pathname.replace(/^.*\/(shopper_data|purchase_data)$/, "$1")}`,
      );
  });
  return {
    count: (pattern: RegExp) => seen.filter((call) => pattern.test(call)).length,
    all: () => [...seen],
  };
}

const START = /^POST \/sdk\/v1\/payments$/;
const COMPLETE = /^POST \/sdk\/v1\/payments\/[^/]+\/complete$/;

type Failure = "error" | "no answer";

/**
 * Makes the page's calls matching `path` fail once: an error status (503, with the service's CORS
 * headers so the SDK reads the status), or no answer (held until `release`, then dropped as a
 * timed-out connection). Returns `release` (for "no answer") and a promise of the call reaching it.
 */
async function failOnce(page: Page, path: RegExp, how: Failure) {
  let release: () => Promise<void> = async () => undefined;
  let reached: (route: Route) => void = () => undefined;
  const hit = new Promise<Route>((resolve) => {
    reached = resolve;
  });
  let done = false;
  // Not `times: 1`: a CORS preflight reaching the handler would spend it.
  await page.route(
    (url) => path.test(url.pathname),
    async (route) => {
      if (done || route.request().method() === "OPTIONS") return route.fallback();
      done = true;
      reached(route);
      if (how === "error") {
        const origin = route.request().headers().origin;
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          headers: origin ? { "access-control-allow-origin": origin } : {},
          body: JSON.stringify({
            error: "service_unavailable",
            error_description: "Injected by the test.",
          }),
        });
        return;
      }
      release = () => route.abort("timedout");
    },
  );
  return { hit, release: () => release() };
}

/** Chrome logs every failed fetch; these are the ones the test causes on purpose. */
function expectFailedCalls(shop: Shop) {
  shop.expectedConsoleErrors.push(/503|ERR_TIMED_OUT|Failed to load resource/);
}

const successEvents = ["service-valuation-updated", "service-payment-completed"];

async function openPayment(shop: Shop) {
  await shop.page.getByLabel("Pay with Service").check();
  await shop.page.getByRole("button", { name: "Place order" }).click();
  const modal = shop.payment();
  await expect(modal.getByRole("button", { name: "Pay now" })).toBeVisible();
  return modal;
}

async function ordersOfCart(page: Page, cartId: string) {
  const { orders } = (await (await page.request.get("/__emulator/orders")).json()) as {
    orders: { cart_id: string; status: string; order_id: string }[];
  };
  return orders.filter((o) => o.cart_id === cartId);
}

test.describe("done twice", () => {
  test("openValuation twice, then × and Escape at once, then Escape twice: one wizard, one catalog call, one closed event each", async ({
    shop,
    page,
  }) => {
    const calls = callsOf(page);
    await shop.open();
    await page.evaluate(() => {
      const service = (window as unknown as { Service: { openValuation(): Promise<void> } })
        .Service;
      void service.openValuation();
      void service.openValuation();
    });
    await expect(shop.wizard().getByLabel("Category")).toBeVisible();
    await expect(page.locator("[data-service-modal=service-valuation]")).toHaveCount(1);
    await expect(shop.wizard().getByLabel("Category")).toHaveCount(1);
    expect(calls.count(/^GET \/sdk\/v1\/catalog$/)).toBe(1);
    // Closed by × and at once by Escape, as a shopper hammering "away" does: one closed event.
    await shop.wizard().getByRole("button", { name: "Close" }).click();
    await page.keyboard.press("Escape");
    await expect(shop.wizard()).toBeHidden();
    const closed = async () =>
      (await shop.events()).filter((e) => e.name === "service-modal-closed").length;
    expect(await closed()).toBe(1);
    // A teaser's call to action double-clicked opens one wizard; Escape twice closes it once.
    await shop
      .teasers("banner")
      .first()
      .getByRole("button", { name: "Calculate discount" })
      .dblclick();
    await expect(shop.wizard().getByLabel("Category")).toBeVisible();
    await expect(page.locator("[data-service-modal=service-valuation]")).toHaveCount(1);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await expect(shop.wizard()).toBeHidden();
    expect(await closed()).toBe(2);
  });

  test("the second click of a double click landing on a teaser opens no wizard; a click and Enter each open one", async ({
    shop,
    page,
  }) => {
    // What a double click on a wizard's last button leaves behind, held still: the first click
    // closed the wizard, the second (detail 2) lands on the teaser's button that lay beneath.
    await shop.open();
    const button = shop
      .teasers("banner")
      .first()
      .getByRole("button", { name: "Calculate discount" });
    await button.dispatchEvent("click", { detail: 2 });
    // Playwright's dispatch is synchronous in the page: an opened wizard would be there already.
    await expect(page.locator("[data-service-modal=service-valuation]")).toHaveCount(0);
    // A single click (detail 1) and the keyboard's click (detail 0) are not held back.
    await button.click();
    await expect(shop.wizard().getByLabel("Category")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(shop.wizard()).toBeHidden();
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(shop.wizard().getByLabel("Category")).toBeVisible();
    await expect(page.locator("[data-service-modal=service-valuation]")).toHaveCount(1);
  });

  test("Get offer and Accept offer double-clicked: one valuation, one accept, one valuation-updated", async ({
    shop,
    page,
  }) => {
    const calls = callsOf(page);
    await shop.open();
    await page.evaluate(() => {
      void (
        window as unknown as { Service: { openValuation(): Promise<void> } }
      ).Service.openValuation();
    });
    const wizard = shop.wizard();
    await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
    await wizard.getByLabel("Model").selectOption({ label: SMALL });
    await wizard.getByRole("button", { name: "Next" }).click();
    for (const group of await wizard.getByRole("group").all()) {
      await group.getByRole("radio").first().check();
    }
    await wizard.getByRole("button", { name: "Get offer" }).dblclick();
    await expect(wizard.locator("[data-offer-value]")).toHaveAttribute("data-offer-value", "1000");
    await wizard.getByRole("button", { name: "Accept offer" }).dblclick();
    await expect(wizard).toBeHidden();
    await expect(shop.teasers("banner").first()).toHaveAttribute("data-state", "offer");
    expect(calls.count(/^POST \/sdk\/v1\/valuations$/)).toBe(1);
    expect(calls.count(/^POST \/sdk\/v1\/valuations\/[^/]+\/accept$/)).toBe(1);
    const names = await shop.eventNames();
    expect(names.filter((n) => n === "service-valuation-updated")).toHaveLength(1);
    expect(names.filter((n) => n === "service-modal-closed")).toHaveLength(1);
  });

  test("updatePaymentSelected(true) twice and (false) twice: one selected, one unselected", async ({
    shop,
    page,
  }) => {
    await shop.open();
    await shop.valuate("Test devices", SMALL);
    await page.evaluate(() => {
      const service = (
        window as unknown as { Service: { updatePaymentSelected(s: boolean): void } }
      ).Service;
      service.updatePaymentSelected(true);
      service.updatePaymentSelected(true);
      service.updatePaymentSelected(false);
      service.updatePaymentSelected(false);
    });
    await expect
      .poll(async () => (await shop.eventNames()).filter((n) => n.startsWith("servicepay-")))
      .toEqual(["servicepay-payment-method-selected", "servicepay-payment-method-unselected"]);
    // The shopper's own clicks: the radio chosen twice in a row is one selection.
    await page.getByLabel("Pay with Service").check();
    await page.getByLabel("Pay with Service").click();
    await expect
      .poll(async () => (await shop.eventNames()).filter((n) => n.startsWith("servicepay-")))
      .toEqual([
        "servicepay-payment-method-selected",
        "servicepay-payment-method-unselected",
        "servicepay-payment-method-selected",
      ]);
  });

  test("Pay now double-clicked: one payment start and completion, one event of each kind, one order @emulator", async ({
    shop,
    page,
  }) => {
    const calls = callsOf(page);
    await shop.open();
    await shop.valuate("Test devices", SMALL);
    const modal = await openPayment(shop);
    await Promise.all([
      page.waitForURL(/\/confirmation$/),
      modal.getByRole("button", { name: "Pay now" }).dblclick(),
    ]);
    await shop.ready();
    const log = (await shop.eventLog()).map((e) => e.name);
    expect(log.filter((n) => n === "service-ready-to-place-order")).toHaveLength(1);
    expect(log.filter((n) => n === "service-payment-completed")).toHaveLength(1);
    expect(calls.count(START)).toBe(1);
    expect(calls.count(COMPLETE)).toBe(1);
    const orders = await ordersOfCart(page, `cart-${shop.key}`);
    expect(orders.map((o) => o.status)).toEqual(["payment_completed"]);
  });

  test("Pay now clicked again while the first payment waits for the service: still one payment @emulator", async ({
    shop,
    page,
  }) => {
    const calls = callsOf(page);
    await shop.open();
    await shop.valuate("Test devices", SMALL);
    const modal = await openPayment(shop);
    // The service answers the start slowly: hold it until the shopper clicked twice more.
    let letGo: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    await page.route(
      (url) => url.pathname.endsWith("/sdk/v1/payments"),
      async (route) => {
        await held;
        await route.fallback();
      },
    );
    const pay = modal.getByRole("button", { name: "Pay now" });
    const box = await pay.boundingBox();
    if (!box) throw new Error("Pay now has no box");
    const started = page.waitForRequest((r) => r.url().endsWith("/sdk/v1/payments"));
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await started;
    await expect(modal.getByRole("status")).toHaveText("Processing payment…");
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await Promise.all([page.waitForURL(/\/confirmation$/), letGo()]);
    await shop.ready();
    const log = (await shop.eventLog()).map((e) => e.name);
    expect(log.filter((n) => n === "service-ready-to-place-order")).toHaveLength(1);
    expect(log.filter((n) => n === "service-payment-completed")).toHaveLength(1);
    expect(calls.count(START)).toBe(1);
    expect(calls.count(COMPLETE)).toBe(1);
  });
});

test.describe("a call failing", () => {
  for (const how of ["error", "no answer"] as const) {
    test(`start-up's shopper_data and init answered with ${how}: service-ready, the offer not claimed, the shop usable`, async ({
      shop,
      page,
    }) => {
      expectFailedCalls(shop);
      // An accepted trade-in the failing start-up must not be able to show.
      await shop.open();
      await shop.valuate("Test devices", SMALL);
      for (const path of [/\/shopper_data$/, /\/sdk\/v1\/init$/]) {
        const fault = await failOnce(page, path, how);
        await page.reload();
        await fault.hit;
        if (how === "no answer") {
          // While the call waits the SDK claims nothing: no service-ready, no offer shown.
          await expect(shop.teasers()).toHaveCount(0);
          expect(await shop.eventNames()).toEqual([]);
          await fault.release();
        }
        await shop.ready();
        expect(await shop.eventNames()).toEqual(["service-ready"]);
        for (const teaser of await shop.teasers().all()) {
          await expect(teaser).toHaveAttribute("data-state", "cta");
        }
        expect(await shop.hasActiveTradeIn()).toBe(false);
        // The page goes on: the payment option still answers.
        expect((await shop.details()).label).toBe("Pay with Service");
      }
      // The next start-up reaches the service again and finds the accepted offer.
      await page.reload();
      await shop.ready();
      expect(await shop.hasActiveTradeIn()).toBe(true);
    });

    test(`the wizard's catalog, valuation and accept answered with ${how}: an alert and no offer claimed; again, exactly one`, async ({
      shop,
      page,
    }) => {
      expectFailedCalls(shop);
      const calls = callsOf(page);
      await shop.open();
      const wizard = shop.wizard();
      const openWizard = () =>
        shop.teasers("banner").first().getByRole("button", { name: "Calculate discount" }).click();
      const failed = wizard
        .getByRole("alert")
        .filter({ hasText: "Something went wrong. Please try again." });
      const settle = async (fault: { release(): Promise<void> }) => {
        if (how === "no answer") {
          await expect(failed).toHaveCount(0);
          await fault.release();
        }
        await expect(failed).toBeVisible();
      };

      // The catalog: no device step; opening the wizard again works.
      let fault = await failOnce(page, /\/sdk\/v1\/catalog$/, how);
      await openWizard();
      await fault.hit;
      await settle(fault);
      await expect(wizard.getByLabel("Category")).toHaveCount(0);
      await wizard.getByRole("button", { name: "Close" }).last().click();
      await openWizard();
      await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
      await wizard.getByLabel("Model").selectOption({ label: SMALL });
      await wizard.getByRole("button", { name: "Next" }).click();
      for (const group of await wizard.getByRole("group").all()) {
        await group.getByRole("radio").first().check();
      }

      // The valuation: no offer.
      fault = await failOnce(page, /\/sdk\/v1\/valuations$/, how);
      await wizard.getByRole("button", { name: "Get offer" }).click();
      await fault.hit;
      await settle(fault);
      await expect(wizard.locator("[data-offer-value]")).toHaveCount(0);
      await wizard.getByRole("button", { name: "Close" }).last().click();
      // A first offer through, so the failed accept below has an active trade-in to leave alone.
      await shop.valuate("Test devices", "Test phone: offer of 2,000.00 (test)");

      // The accept: no valuation-updated, the earlier trade-in is still the active one.
      await shop
        .teasers("banner")
        .first()
        .getByRole("button", { name: "Value another device" })
        .click();
      await wizard.getByLabel("Category").selectOption({ label: "Test devices" });
      await wizard.getByLabel("Model").selectOption({ label: SMALL });
      await wizard.getByRole("button", { name: "Next" }).click();
      for (const group of await wizard.getByRole("group").all()) {
        await group.getByRole("radio").first().check();
      }
      await wizard.getByRole("button", { name: "Get offer" }).click();
      const updatedBefore = (await shop.eventNames()).filter(
        (n) => n === "service-valuation-updated",
      ).length;
      fault = await failOnce(page, /\/sdk\/v1\/valuations\/[^/]+\/accept$/, how);
      await wizard.getByRole("button", { name: "Accept offer" }).click();
      await fault.hit;
      await settle(fault);
      expect(
        (await shop.eventNames()).filter((n) => n === "service-valuation-updated"),
      ).toHaveLength(updatedBefore);
      await expect(shop.teasers("banner").first()).toContainText("2,000.00");
      await wizard.getByRole("button", { name: "Close" }).last().click();
      // Again, the call through: exactly one more valuation-updated, the new offer shown.
      const acceptsBefore = calls.count(/\/accept$/);
      await shop.valuate("Test devices", SMALL);
      expect(calls.count(/\/accept$/)).toBe(acceptsBefore + 1);
      expect(
        (await shop.eventNames()).filter((n) => n === "service-valuation-updated"),
      ).toHaveLength(updatedBefore + 1);
      await expect(shop.teasers("banner").first()).toContainText("€10.00");
    });

    test(`purchase_data and payment-option answered with ${how} when the payment opens: an alert, no Pay now`, async ({
      shop,
      page,
    }) => {
      expectFailedCalls(shop);
      await shop.open();
      await shop.valuate("Test devices", SMALL);
      for (const path of [/\/purchase_data$/, /\/sdk\/v1\/payment-option$/]) {
        const fault = await failOnce(page, path, how);
        await page.evaluate(() => {
          void (window as unknown as { Service: { openPayment(): void } }).Service.openPayment();
        });
        await fault.hit;
        const modal = shop.payment();
        if (how === "no answer") {
          await expect(modal.getByRole("button", { name: "Pay now" })).toHaveCount(0);
          await fault.release();
        }
        await expect(modal.getByRole("alert")).toHaveText(
          /Something went wrong|Service Pay cannot be used/,
        );
        await expect(modal.getByRole("button", { name: "Pay now" })).toHaveCount(0);
        await page.keyboard.press("Escape");
        await expect(modal).toBeHidden();
      }
      expect(await shop.eventNames()).not.toContain("service-ready-to-place-order");
      expect(await shop.hasActiveTradeIn()).toBe(true);
    });

    test(`the payment's start answered with ${how}: no order, no events, no redirect; Pay now again pays once @emulator`, async ({
      shop,
      page,
    }) => {
      expectFailedCalls(shop);
      const calls = callsOf(page);
      // The SDK's observations failing all along change nothing the shopper sees.
      await page.route(
        (url) => url.pathname.includes("/sdk/v1/observations"),
        (route) =>
          route.request().method() === "OPTIONS"
            ? route.fallback()
            : route.fulfill({
                status: 503,
                headers: { "access-control-allow-origin": route.request().headers().origin ?? "*" },
                body: "{}",
              }),
      );
      await shop.open();
      await shop.valuate("Test devices", SMALL);
      const modal = await openPayment(shop);
      const fault = await failOnce(page, /\/sdk\/v1\/payments$/, how);
      await modal.getByRole("button", { name: "Pay now" }).click();
      await fault.hit;
      if (how === "no answer") {
        await expect(modal.getByRole("status")).toHaveText("Processing payment…");
        await fault.release();
      }
      await expect(modal.getByRole("status")).toHaveText("Something went wrong. Please try again.");
      expect(page.url()).not.toMatch(/\/confirmation$/);
      const names = await shop.eventNames();
      expect(names).not.toContain("service-ready-to-place-order");
      for (const success of successEvents.slice(1)) expect(names).not.toContain(success);
      expect(await ordersOfCart(page, `cart-${shop.key}`)).toEqual([]);
      expect(await shop.hasActiveTradeIn()).toBe(true);
      // Without an observation session the SDK reports nothing: a report without its token is
      // one the service refuses (emulator/README.md, "Go-live readiness").
      expect(calls.count(/^POST \/sdk\/v1\/observations\/session$/)).toBeGreaterThan(0);
      expect(calls.count(/^POST \/sdk\/v1\/observations$/)).toBe(0);
      // Again: exactly one payment.
      await Promise.all([
        page.waitForURL(/\/confirmation$/),
        modal.getByRole("button", { name: "Pay now" }).click(),
      ]);
      await shop.ready();
      const log = (await shop.eventLog()).map((e) => e.name);
      expect(log.filter((n) => n === "service-ready-to-place-order")).toHaveLength(1);
      expect(log.filter((n) => n === "service-payment-completed")).toHaveLength(1);
      expect(calls.count(START)).toBe(2);
      const orders = await ordersOfCart(page, `cart-${shop.key}`);
      expect(orders.map((o) => o.status)).toEqual(["payment_completed"]);
    });

    test(`the payment's completion answered with ${how}: no completed event, no success, no redirect, the service's order pending; Pay now again completes once @emulator`, async ({
      shop,
      page,
    }) => {
      expectFailedCalls(shop);
      const calls = callsOf(page);
      await shop.open();
      await shop.valuate("Test devices", SMALL);
      const modal = await openPayment(shop);
      const fault = await failOnce(page, /\/sdk\/v1\/payments\/[^/]+\/complete$/, how);
      await modal.getByRole("button", { name: "Pay now" }).click();
      await fault.hit;
      if (how === "no answer") {
        await expect(modal.getByRole("status")).toHaveText("Processing payment…");
        await fault.release();
      }
      await expect(modal.getByRole("status")).toHaveText("Something went wrong. Please try again.");
      await expect(modal).not.toContainText("Payment completed");
      expect(page.url()).not.toMatch(/\/confirmation$/);
      expect(await shop.eventNames()).not.toContain("service-payment-completed");
      // The order was started (ready-to-place-order told the merchant), and is not paid.
      expect(await shop.eventNames()).toContain("service-ready-to-place-order");
      const pending = await ordersOfCart(page, `cart-${shop.key}`);
      expect(pending.map((o) => o.status)).toEqual(["pending"]);
      // Again: the same order completes, once.
      await Promise.all([
        page.waitForURL(/\/confirmation$/),
        modal.getByRole("button", { name: "Pay now" }).click(),
      ]);
      await shop.ready();
      const log = await shop.eventLog();
      const completed = log.filter((e) => e.name === "service-payment-completed");
      expect(completed).toHaveLength(1);
      expect(completed[0]?.detail).toMatchObject({ order_id: pending[0]?.order_id });
      expect(calls.count(COMPLETE)).toBe(2);
      const orders = await ordersOfCart(page, `cart-${shop.key}`);
      expect(orders.map((o) => o.status)).toEqual(["payment_completed"]);
    });
  }
});
