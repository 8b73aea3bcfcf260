import { expect, test } from "./fixtures";

// The SDK as strict as the service's own: the payment option is recognised by its
// data-module-name, purchase_data a payment cannot take is refused with a clear failure, the
// new-user event is for new users only, and the methods work detached.

const SMALL = "Test phone: offer of 10.00 (test)";

type ServiceWindow = {
  Service: {
    updatePaymentSelected(v: boolean): void;
    paymentOptionDetailsFor(p: string): Promise<{ mode: string }>;
    hasActiveTradeIn(): boolean;
    openValuation(): Promise<void>;
  };
};

test("an option under another data-module-name is not recognised, and the console says why", async ({
  shop,
  page,
}) => {
  await shop.open("module=service");
  await page.getByLabel("Pay with Service").check();
  // A round trip to the service, so anything the selection started has had its chance.
  await shop.details();
  // Both names, the page's and the service's, so the merchant sees what to change.
  expect(shop.warnings.join("\n")).toContain(
    'its data-module-name is "service", the service\'s module name is "servicepay"',
  );
  expect((await shop.eventNames()).filter((n) => n.startsWith("servicepay-"))).toEqual([]);
  await expect(shop.wizard()).toBeHidden();
});

test("the module name on the option's box, not on its radio, is not recognised: the SDK takes only a radio named payment_method", async ({
  shop,
  page,
}) => {
  await shop.open();
  await page.evaluate(() => {
    const radio = document.querySelector<HTMLInputElement>("#service-option input");
    radio?.removeAttribute("data-module-name");
    document.getElementById("service-option")?.setAttribute("data-module-name", "servicepay");
  });
  await page.getByLabel("Pay with Service").check();
  await shop.details();
  expect(shop.warnings.join("\n")).toContain(
    'its data-module-name is null, the service\'s module name is "servicepay"',
  );
  expect((await shop.eventNames()).filter((n) => n.startsWith("servicepay-"))).toEqual([]);
  await expect(shop.wizard()).toBeHidden();
});

test("a page with no payment option at all: choosing Service Pay says in the console what the SDK looks for", async ({
  shop,
  page,
}) => {
  await shop.open();
  await page.evaluate(() => {
    document.getElementById("service-option")?.remove();
    (window as unknown as ServiceWindow).Service.updatePaymentSelected(true);
  });
  await shop.details();
  expect(shop.warnings.join("\n")).toContain(
    'no payment option found: a radio named payment_method with data-module-name="servicepay" is needed for Service Pay.',
  );
  expect((await shop.eventNames()).filter((n) => n.startsWith("servicepay-"))).toEqual([]);
  await expect(shop.wizard()).toBeHidden();
});

test("the recognised option: data-module-name servicepay, with the icon the service serves", async ({
  shop,
  page,
  request,
}) => {
  await shop.open();
  const radio = page.locator('input[name="payment_method"][value="service_pay"]');
  await expect(radio).toHaveAttribute("data-module-name", "servicepay");
  const icon = page.locator("#service-option img");
  await expect(icon).toBeVisible();
  expect(await icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
    true,
  );
  const served = await request.get(String(await icon.getAttribute("src")));
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/svg+xml");
  await radio.check();
  await expect.poll(() => shop.eventNames()).toContain("servicepay-payment-method-selected");
  expect(shop.warnings.filter((w) => w.includes("[service]"))).toEqual([]);
});

test("the methods work detached from the Service object", async ({ shop, page }) => {
  await shop.open();
  const result = await page.evaluate(async () => {
    const { updatePaymentSelected, paymentOptionDetailsFor, hasActiveTradeIn } = (
      window as unknown as ServiceWindow
    ).Service;
    const details = await paymentOptionDetailsFor("ep1");
    updatePaymentSelected(true);
    return { mode: details.mode, active: hasActiveTradeIn() };
  });
  expect(result).toEqual({ mode: "tradein_missing", active: false });
  // Selecting without a valuation opens the wizard (contract: tradein_missing).
  await expect(shop.wizard()).toBeVisible();
  await expect.poll(() => shop.eventNames()).toContain("servicepay-payment-method-selected");
});

test("service-new-user-valuation-started fires for a shopper's first valuation only", async ({
  shop,
  page,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  await shop.valuate("Test devices", SMALL);
  const started = (names: string[]) =>
    names.filter((n) => n === "service-new-user-valuation-started");
  expect(started(await shop.eventNames())).toHaveLength(1);
  // Back later: the service remembers the earlier valuation.
  await page.reload();
  await shop.ready();
  await shop.valuate("Test devices", SMALL);
  expect(started(await shop.eventNames())).toEqual([]);
  expect(await shop.eventNames()).toContain("service-valuation-updated");
});

test.describe("purchase_data Service Pay cannot take is refused with a clear failure", () => {
  for (const [what, breakIt] of [
    [
      "a cart whose totals do not add up",
      (shop: import("./fixtures").Shop) => {
        const cart = shop.cart(79_860);
        return shop.setState({ cart: { ...cart, total: cart.total + 100 } });
      },
    ],
    [
      "no billing or shipping address",
      (shop: import("./fixtures").Shop) => shop.setState({ addresses: false }),
    ],
  ] as const) {
    test(what, async ({ shop, page, request }) => {
      shop.expectedConsoleErrors.push(/status of 400/);
      await shop.open();
      await shop.valuate("Test devices", SMALL);
      await page.getByLabel("Pay with Service").check();
      await expect.poll(() => shop.eventNames()).toContain("servicepay-payment-method-selected");
      await breakIt(shop);
      await page.getByRole("button", { name: "Place order" }).click();
      const modal = shop.payment();
      await expect(modal.getByRole("alert")).toHaveText(
        "Service Pay cannot be used for this order.",
      );
      await expect(modal).toContainText("cannot be paid with Service Pay");
      await expect(modal.getByRole("button", { name: "Pay now" })).toHaveCount(0);
      expect(shop.warnings.join("\n")).toContain("purchase_data refused");
      await modal.getByRole("button", { name: "Close" }).last().click();
      await expect(modal).toBeHidden();
      await expect.poll(() => shop.eventNames()).toContain("service-modal-closed");
      // No order was started, and the service's journal shows why.
      const orders = await (await request.get("/__emulator/orders")).json();
      expect(
        orders.orders.filter((o: { cart_id: string }) => o.cart_id.includes(shop.key)),
      ).toEqual([]);
      const journal = await (await request.get("/__emulator/journal?kind=request")).json();
      const refused = journal.entries.filter(
        (e: { path: string; status: number }) =>
          e.path === "/sdk/v1/payment-option" && e.status === 400,
      );
      expect(refused.length).toBeGreaterThan(0);
    });
  }
});
