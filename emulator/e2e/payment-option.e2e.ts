import { A_MESSAGE, expect, test } from "./fixtures";

const SMALL = "Test phone: offer of 10.00 (test)";
const LARGE = "Test phone: offer of 2,000.00 (test)";
const GBP = "Test phone: offer in another currency (test)";

/** Contract, Payment option details: info and extra may hold only <br> and <strong>. */
function expectOnlySimpleHtml(text: string | undefined) {
  const tags = [...(text ?? "").matchAll(/<\/?([a-z0-9]+)[^>]*>/gi)].map((m) =>
    m[1]?.toLowerCase(),
  );
  expect(tags.filter((t) => t !== "br" && t !== "strong")).toEqual([]);
}

test("unavailable when the page's products lack ep1: the option is hidden", async ({
  shop,
  page,
}) => {
  await shop.open("products=valuations");
  const details = await shop.details();
  expect(details).toMatchObject({ mode: "unavailable", label: "Pay with Service" });
  expect(details.data).toBeUndefined();
  await expect(page.locator("#service-option")).toBeHidden();
  // Any product other than ep1 is unavailable too.
  expect((await shop.details("ep2")).mode).toBe("unavailable");
});

test("tradein_missing without a valuation: selectable, selecting it opens the wizard", async ({
  shop,
  page,
}) => {
  await shop.open();
  const details = await shop.details();
  expect(details).toMatchObject({
    mode: "tradein_missing",
    data: { valuation: null, tradein: null, tradein_currency: null, cart_currency: "EUR" },
  });
  expectOnlySimpleHtml(details.info);
  expectOnlySimpleHtml(details.extra);
  await page.getByLabel("Pay with Service").check();
  await expect(shop.wizard()).toBeVisible();
  await expect.poll(() => shop.eventNames()).toContain("servicepay-payment-method-selected");
  expect(
    (await shop.events()).find((e) => e.name === "servicepay-payment-method-selected")?.detail,
  ).toMatchObject({
    message: A_MESSAGE,
    mode: "tradein_missing",
  });
});

test("tradein_valid: data carries the raw values", async ({ shop }) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  const details = await shop.details();
  expect(details).toMatchObject({
    mode: "tradein_valid",
    template_name: "tradein_valid",
    data: {
      valuation: 1000,
      tradein: expect.any(String),
      minimum: 20000,
      tradein_currency: "EUR",
      cart_currency: "EUR",
    },
  });
  expect(details.info).toContain("<strong>€10.00</strong>");
  expectOnlySimpleHtml(details.info);
  expectOnlySimpleHtml(details.extra);
});

test("tradein_invalid / currency: a GBP offer against a EUR cart", async ({ shop, page }) => {
  await shop.open();
  await shop.valuate("Test devices", GBP);
  const details = await shop.details();
  expect(details).toMatchObject({
    mode: "tradein_invalid",
    template_name: "currency",
    data: { valuation: 25000, tradein_currency: "GBP", cart_currency: "EUR" },
  });
  expectOnlySimpleHtml(details.info);
  // The merchant's page shows the option disabled with the explanation.
  await expect(page.locator("form#checkout")).toHaveAttribute("data-template", "currency");
  await expect(page.getByLabel("Pay with Service")).toBeDisabled();
});

test("tradein_invalid / cart_below_limit: an offer larger than the cart, or a tiny cart", async ({
  shop,
}) => {
  await shop.open();
  await shop.valuate("Test devices", LARGE);
  expect(await shop.details()).toMatchObject({
    mode: "tradein_invalid",
    template_name: "cart_below_limit",
    data: { valuation: 200000, minimum: 200000 },
  });
  // A small offer on a cart under the merchant's trade-in minimum (50.00).
  await shop.valuate("Test devices", SMALL);
  await shop.setState({ cart: shop.cart(4000) });
  expect(await shop.details()).toMatchObject({
    mode: "tradein_invalid",
    template_name: "cart_below_limit",
    data: { minimum: 5000 },
  });
});

test("tradein_invalid / other_ok: cart under the Service Pay minimum, fine for other methods", async ({
  shop,
}) => {
  await shop.setState({ cart: shop.cart(10000) });
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  const details = await shop.details();
  expect(details).toMatchObject({
    mode: "tradein_invalid",
    template_name: "other_ok",
    data: { valuation: 1000, minimum: 20000 },
  });
  expect(details.extra).toContain("another method");
  expectOnlySimpleHtml(details.info);
  expectOnlySimpleHtml(details.extra);
});

test("updatePaymentSelected fires selected with a payload and unselected without", async ({
  shop,
  page,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  await page.getByLabel("Pay with Service").check();
  await page.getByLabel("Card (merchant)").check();
  // Repeating the same state fires nothing more.
  await page.evaluate(() =>
    (
      window as unknown as { Service: { updatePaymentSelected(v: boolean): void } }
    ).Service.updatePaymentSelected(false),
  );
  const selection = async () =>
    (await shop.events()).filter((e) => e.name.startsWith("servicepay-"));
  await expect.poll(async () => (await selection()).length).toBe(2);
  // Contract, Events: "payload from the modal": the payment option's details for the cart now.
  const details = await shop.details();
  expect(await selection()).toEqual([
    {
      name: "servicepay-payment-method-selected",
      detail: {
        message: "Service Pay selected",
        module_name: "servicepay",
        tradein_id: details.data?.tradein,
        ...details,
      },
      page: expect.any(String),
    },
    { name: "servicepay-payment-method-unselected", detail: null, page: expect.any(String) },
  ]);
  await expect(shop.wizard()).toBeHidden();
});

test("a changed cart moves the session to its next version and fires service-purchase-updated", async ({
  shop,
  request,
}) => {
  await shop.open();
  const before = (await shop.events()).filter((e) => e.name === "service-purchase-updated");
  expect(before).toEqual([]);
  await shop.setState({ cart: shop.cart(55500) });
  await shop.details();
  const updated = (await shop.events()).filter((e) => e.name === "service-purchase-updated");
  expect(updated).toHaveLength(1);
  expect(updated[0]?.detail).toMatchObject({
    message: A_MESSAGE,
    session_id: expect.stringMatching(/^[0-9a-f]{64}\|002$/),
  });
  // The service API agrees: the session's current version is 002 (contract: Session version).
  const state = await (await request.get(`${shop.base}/state`)).json();
  const sessions = await (await request.get("/__emulator/sessions")).json();
  const text = JSON.stringify(sessions);
  expect(text).toContain(`${state.session_hash}|002`);
  // The same cart again changes nothing.
  await shop.details();
  expect((await shop.events()).filter((e) => e.name === "service-purchase-updated")).toHaveLength(
    1,
  );
});
