// One amount across the parties (docs/decisions/delivery-in-the-cart.md): for a Service Pay
// order, every "to pay" the shopper reads in the shop, what the service's payment window says
// is left to pay, what the service's order records as collected and what the shop's database
// records as paid are the same number of cents. Each is read from its own party (the page, the
// window, the emulator's order and journal, the shop's SQLite file), never derived from another.
import { formatMoney } from "../lib/shop/money";
import { shippingPrice } from "../lib/shop/shipping";
import { sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { valueDevice } from "./support/journeys";
import type { ServiceSdkDriver } from "./support/service-sdk-driver";
import { centsOf, type ShopSteps } from "./support/shop";
import { storedOrder } from "./support/shop-db";

const PRODUCT = { slug: "aurora-x1", name: "Aurora X1" };

/** The amount in a sentence such as "… €383.99 to pay with Service Pay …" (its <strong>). */
const strong = (testId: string) => `[data-testid="${testId}"] strong`;

/**
 * At the checkout with Service Pay chosen and `delivery` checked: what the service's window shows
 * is the shop's cart by formula (Contract, Resources › Cart; What the service does (4)), every
 * figure read from the checkout page: one row per line of the shop's order summary and one for
 * the delivery; a Cart total of items, VAT and delivery less the promotion codes' discounts
 * (the checkout's own "Order total"); the trade-in off it up to that total; and the rest to pay,
 * the page's "Total to pay". Returns that amount, as shown.
 */
async function expectWindowShowsShopCart(
  { sdk, shop }: { sdk: ServiceSdkDriver; shop: ShopSteps },
  delivery: { name: string },
  tradeIn: number,
): Promise<string> {
  const page = shop.page;
  const money = (cents: number) => formatMoney(cents, "EUR");
  const { lines, subtotal, vat, discounts } = await shop.orderSummary();
  const deliveryPrice = centsOf(
    (await page
      .locator("label", { hasText: delivery.name })
      .locator(".radio-card__price")
      .textContent()) ?? "",
  );
  const total = subtotal + vat - discounts + deliveryPrice;
  await expect(
    page.locator('xpath=//dt[normalize-space()="Order total"]/following-sibling::dd[1]'),
    "the checkout's order total: items, VAT and delivery less the codes",
  ).toHaveText(money(total));
  const discount = Math.min(tradeIn, total);
  await expect(page.getByTestId("checkout-total")).toHaveText(money(total - discount));
  await shop.placeOrder();
  expect(await sdk.paymentAmounts()).toEqual({
    cartTotal: money(total),
    tradeInDiscount: `−${money(discount)}`,
    leftToPay: money(total - discount),
  });
  const rows = await sdk.paymentItems();
  expect(rows.map((r) => `${r.quantity} × ${r.name}`)).toEqual([
    ...lines.map((l) => `${l.quantity} × ${l.name}`),
    `1 × ${delivery.name}`,
  ]);
  const itemsTotal = rows.reduce((sum, r) => sum + centsOf(r.total), 0);
  expect(
    itemsTotal - discounts,
    "the rows less the codes' discounts add up to the cart's total",
  ).toBe(total);
  return money(total - discount);
}

// What a shopper sees of one amount, with no control API (they run against a staging service):
// the trade-in valued in the wizard, then the shop's pages and the service's window compared by
// formula. The service's order, journal and the shop's database are the @emulator journeys below.
const STANDARD = { id: "standard", name: "Standard delivery" } as const;
const EXPRESS = { id: "express", name: "Express delivery" } as const;

/** Signed in, a device valued in the wizard, PRODUCT in the cart: returns the offer in cents. */
async function valuedWithProductInCart({ sdk, shop }: { sdk: ServiceSdkDriver; shop: ShopSteps }) {
  await shop.startSignedIn();
  const tradeIn = await valueDevice(sdk);
  await shop.addToCart(PRODUCT.slug);
  return tradeIn;
}

/** At the checkout: `delivery` and Service Pay chosen, the trade-in off the page's total. */
async function servicePayAtCheckout(
  { sdk, shop }: { sdk: ServiceSdkDriver; shop: ShopSteps },
  delivery: { name: string },
  tradeIn: number,
) {
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.page.getByLabel(delivery.name).check();
  await shop.servicePayRadio().check();
  await expect(shop.page.getByTestId("checkout-trade-in-discount")).toHaveText(
    `−${formatMoney(tradeIn, "EUR")}`,
  );
}

test("Service Pay: the cart page and the service's window show the shop's items, VAT and delivery less the trade-in, and the order is paid that", async ({
  page,
  sdk,
  shop,
}) => {
  const tradeIn = await valuedWithProductInCart({ sdk, shop });
  // The cart page: the default delivery included, the trade-in off.
  await page.getByRole("link", { name: "View cart" }).click();
  const cart = await shop.orderSummary();
  await expect(page.locator(strong("total-with-trade-in"))).toHaveText(
    formatMoney(cart.subtotal + cart.vat + shippingPrice("standard", "EUR") - tradeIn, "EUR"),
  );
  await servicePayAtCheckout({ sdk, shop }, EXPRESS, tradeIn);
  const toPay = await expectWindowShowsShopCart({ sdk, shop }, EXPRESS, tradeIn);
  await sdk.pay();
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(page.getByTestId("order-total")).toHaveText(toPay);
});

test("Service Pay after a cart change: the service's window, opened again, shows the new cart", async ({
  page,
  sdk,
  shop,
}) => {
  const tradeIn = await valuedWithProductInCart({ sdk, shop });
  await servicePayAtCheckout({ sdk, shop }, STANDARD, tradeIn);
  await expectWindowShowsShopCart({ sdk, shop }, STANDARD, tradeIn);

  // The shopper closes the window, frees the cart from the cart page and changes it.
  await sdk.closePaymentModal();
  const updates = async () =>
    (await sdk.eventLog()).filter((e) => e.name === "service-purchase-updated").length;
  const updatesBefore = await updates();
  await page.goto("/cart");
  await page.getByRole("button", { name: "Cancel that payment and change the cart" }).click();
  await expect(page.getByTestId("payment-open")).toHaveCount(0);
  await shop.addToCart("echo-buds-pro", 2);

  await servicePayAtCheckout({ sdk, shop }, STANDARD, tradeIn);
  await expectWindowShowsShopCart({ sdk, shop }, STANDARD, tradeIn);
  // Contract, Session version: the service saw the changed cart and said so.
  expect(await updates()).toBeGreaterThan(updatesBefore);
});

for (const journey of [
  { currency: "EUR", delivery: "Standard delivery", tradeIn: 42_000 },
  { currency: "GBP", delivery: "Express delivery", tradeIn: 30_000 },
] as const) {
  test(`Service Pay, ${journey.delivery}, ${journey.currency}: the shop's pages, the service's window and order, and the shop's database show one amount @emulator`, async ({
    page,
    sdk,
    shop,
    emulator,
  }) => {
    const money = (cents: number) => formatMoney(cents, journey.currency);
    await shop.startSignedIn();
    await page.goto(`/products/${PRODUCT.slug}`);
    if (journey.currency === "GBP") await shop.switchCurrency("GBP");
    await emulator.createTradeIn({
      session_hash: await sessionHashOf(page),
      value: journey.tradeIn,
      currency: journey.currency,
    });
    await shop.addToCart(PRODUCT.slug);
    await sdk.ready();
    // Before a delivery is chosen, the cart and the product page include the default one (the
    // product page shows the value once the SDK told it in this tab, on the cart page).
    await page.getByRole("link", { name: "View cart" }).click();
    const cartFigure = page.locator(strong("total-with-trade-in"));
    await expect(cartFigure).not.toBeEmpty();
    const defaultToPay = (await cartFigure.textContent()) ?? "";
    await expect(page.getByTestId("total-with-trade-in")).toContainText(
      "standard delivery included",
    );
    await page.getByRole("link", { name: PRODUCT.name }).click();
    await expect(page.locator(strong("product-trade-in-price"))).toHaveText(defaultToPay);
    await expect(page.getByTestId("product-trade-in-price")).toContainText(
      "standard delivery included",
    );
    await page.getByRole("link", { name: "Cart" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/cart");

    // Checkout: the chosen delivery, in the payment section, the total and the order summary.
    await page.getByRole("link", { name: "Go to checkout" }).click();
    await shop.expectServicePayMode("tradein_valid");
    await page.getByLabel(journey.delivery).check();
    await shop.servicePayRadio().check();
    const toPay = (await page.getByTestId("checkout-total").textContent()) ?? "";
    expect(toPay).toMatch(/^[€£]\d/);
    if (journey.delivery === "Standard delivery") expect(toPay).toBe(defaultToPay);
    else expect(toPay).not.toBe(defaultToPay);
    await expect(page.locator(strong("service-pay-trade-in"))).toHaveText(toPay);
    await expect(page.locator(strong("total-with-trade-in"))).toHaveText(toPay);
    await expect(page.getByTestId("total-with-trade-in")).toContainText(
      `${journey.delivery.toLowerCase()} included`,
    );

    // The service's window: what it will collect, the delivery a line of its cart.
    await shop.placeOrder();
    const window = await sdk.paymentAmounts();
    expect(window.leftToPay).toBe(toPay);
    expect(window.tradeInDiscount).toBe(`−${money(journey.tradeIn)}`);
    await expect(sdk.paymentModal().getByRole("cell", { name: journey.delivery })).toBeVisible();
    const paid = await sdk.pay();

    // The confirmation, once the signed webhook marked the order paid.
    await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
    await expect(shop.orderStatus()).toHaveText("Paid");
    await expect(page.getByTestId("order-total")).toHaveText(toPay);
    const number = (await page.getByTestId("order-number").textContent()) ?? "";

    // The service's order: amount − trade_in_discount is what it collected.
    const [serviceOrder] = (await emulator.orders()).filter((o) => o.cart_id === paid.cart_id);
    expect(serviceOrder).toBeDefined();
    expect(serviceOrder?.trade_in_discount).toBe(journey.tradeIn);
    const collected = (serviceOrder?.amount ?? 0) - (serviceOrder?.trade_in_discount ?? 0);
    expect(money(collected)).toBe(toPay);

    // The service's journal: the payment it was asked to start (the Cart from the shop's
    // purchase_data, delivery a line of it) and the notification it signed carry the same amount.
    const journal = await emulator.journal();
    const bodyOf = (value: unknown) =>
      (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
    const start = journal.find(
      (e) =>
        e.kind === "request" &&
        e.method === "POST" &&
        e.path === "/sdk/v1/payments" &&
        bodyOf(e.response_body)?.cart_id === paid.cart_id,
    );
    const startedCart = (bodyOf(start?.request_body).purchase as { cart: { total: number } }).cart;
    expect(money(startedCart.total - journey.tradeIn)).toBe(toPay);
    const signed = journal
      .filter((e) => e.kind === "webhook" && e.status === 200)
      .map((e) => bodyOf(e.request_body))
      .filter((b) => b.order_id === paid.order_id);
    expect(signed.length, "the paid notification was delivered").toBeGreaterThan(0);
    for (const b of signed) {
      expect(money((b.amount as number) - (b.trade_in_discount as number))).toBe(toPay);
    }

    // The shop's database: paid, for exactly what the service collected.
    expect(storedOrder(number)).toMatchObject({
      status: "payment_completed",
      currency: journey.currency,
      total: collected,
      tradeInDiscount: journey.tradeIn,
      serviceOrderId: paid.order_id,
    });

    // The shopper's account and the back office show the same.
    await page.goto("/account");
    await expect(page.getByRole("listitem").filter({ hasText: number })).toContainText(
      `Paid, ${toPay}`,
    );
    await shop.openAdminOrder(number);
    await expect(page.getByTestId("order-total")).toHaveText(toPay);
    await expect(page.getByTestId("admin-trade-in-summary")).toHaveText(
      `−${money(journey.tradeIn)} off the payment`,
    );
  });
}

// A promotion code (contract: Resources › Cart, Discount): typed in the cart page, it is a
// discount of the Cart the shop gives the service, so what the shopper reads, what the service
// collects and what the shop stores are all items + VAT + delivery − the code − the trade-in.
// What the shopper reads runs everywhere (no control API: the shopper's own valuation, every
// figure by formula from the shop's pages); what the service and the shop stored is @emulator.

test("Service Pay with a promotion code, the trade-in above the cart's total and then below it: the option and every figure of the service's window by formula from the shop's pages; an expired code changes nothing", async ({
  page,
  sdk,
  shop,
}) => {
  const money = (cents: number) => formatMoney(cents, "EUR");
  await shop.startSignedIn();
  const tradeIn = await valueDevice(sdk);

  // A cart smaller than the offer (Payment option mode, tradein_invalid / cart_below_limit:
  // the discount would exceed the order): the option disabled, saying why.
  await shop.addToCart("pulse-speaker-go");
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayDisabled("cart_below_limit");
  await expect(shop.servicePayExplanation()).toContainText(money(tradeIn));
  // With the card chosen the page's total to pay is the whole order, delivery included.
  const small = centsOf((await page.getByTestId("checkout-total").textContent()) ?? "");
  expect(small, "the small cart, delivery included, is below the offer").toBeLessThan(tradeIn);

  // Above it, with a code off the items: the option usable, and the window's figures.
  await shop.addToCart(PRODUCT.slug);
  await page.getByRole("link", { name: "View cart" }).click();
  const { subtotal, vat } = await shop.orderSummary();
  const cartTotal = page.getByTestId("cart-total");
  await expect(cartTotal).toHaveText(money(subtotal + vat));
  const status = await shop.applyPromotionCode("summer24");
  await expect(status).toHaveText("SUMMER24 has expired.");
  await expect(page.getByTestId("applied-promotion")).toHaveCount(0);
  await expect(page.getByTestId("cart-discount")).toHaveCount(0);
  await expect(cartTotal).toHaveText(money(subtotal + vat));
  await shop.applyPromotionCode("save10");
  await expect(status).toHaveText("SAVE10 is applied to your cart.");
  await expect(page.getByTestId("applied-promotion")).toContainText("SAVE10");
  const { discounts: off } = await shop.orderSummary();
  expect(off, "the code takes something off").toBeGreaterThan(0);
  await expect(cartTotal).toHaveText(money(subtotal + vat - off));

  await servicePayAtCheckout({ sdk, shop }, STANDARD, tradeIn);
  const toPay = await expectWindowShowsShopCart({ sdk, shop }, STANDARD, tradeIn);
  await sdk.pay();
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(page.getByTestId("order-total")).toHaveText(toPay);
  await expect(page.getByTestId("order-discount")).toContainText(`SAVE10`);
  await expect(page.getByTestId("order-discount")).toContainText(`−${money(off)}`);
});

test("Service Pay with a promotion code: the Cart the service was given carries the code, it collects what the shopper read, and the shop stores, lists and records the same @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const money = (cents: number) => formatMoney(cents, "EUR");
  const tradeIn = 42_000;
  await shop.startSignedIn();
  await page.goto(`/products/${PRODUCT.slug}`);
  await emulator.createTradeIn({
    session_hash: await sessionHashOf(page),
    value: tradeIn,
    currency: "EUR",
  });
  await shop.addToCart(PRODUCT.slug);
  await page.getByRole("link", { name: "View cart" }).click();
  const { subtotal, vat } = await shop.orderSummary();
  // The percentage code: 10 % of the items' price and VAT, floored to the cent.
  await shop.applyPromotionCode("save10");
  const off = Math.floor(((subtotal + vat) * 10) / 100);
  await expect(page.getByTestId("cart-discount")).toContainText(`−${money(off)}`);
  const owed = subtotal + vat + shippingPrice("standard", "EUR") - off;
  const toPay = money(owed - tradeIn);

  await page.getByRole("link", { name: "Go to checkout" }).click();
  await shop.expectServicePayMode("tradein_valid");
  await page.getByLabel("Standard delivery").check();
  await shop.servicePayRadio().check();
  await expect(page.getByTestId("checkout-total")).toHaveText(toPay);
  await shop.placeOrder();
  expect((await sdk.paymentAmounts()).leftToPay).toBe(toPay);
  const paid = await sdk.pay();
  await expect(shop.orderStatus()).toHaveText("Paid");
  const number = (await page.getByTestId("order-number").textContent()) ?? "";

  // The service: the Cart it was given carried the discount, and it collected exactly toPay.
  const journal = await emulator.journal();
  const bodyOf = (value: unknown) =>
    (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
  const start = journal.find(
    (e) =>
      e.kind === "request" &&
      e.method === "POST" &&
      e.path === "/sdk/v1/payments" &&
      bodyOf(e.response_body)?.cart_id === paid.cart_id,
  );
  const sent = (
    bodyOf(start?.request_body).purchase as {
      cart: {
        price: number;
        tax: number;
        total: number;
        discounts?: { id: string; total: number }[];
      };
    }
  ).cart;
  expect(sent.discounts).toEqual([{ id: "promo:SAVE10", name: "10 % off your items", total: off }]);
  expect(sent.total).toBe(sent.price + sent.tax - off);
  const [serviceOrder] = (await emulator.orders()).filter((o) => o.cart_id === paid.cart_id);
  expect(serviceOrder?.amount).toBe(owed);
  const collected = (serviceOrder?.amount ?? 0) - (serviceOrder?.trade_in_discount ?? 0);
  expect(money(collected)).toBe(toPay);

  // The shop's database: paid, the discount stored, the total what the service collected.
  expect(storedOrder(number)).toMatchObject({
    status: "payment_completed",
    discountTotal: off,
    tradeInDiscount: tradeIn,
    total: collected,
  });

  // The account and the back office show the same; the order's history says the discount.
  await page.goto("/account");
  await expect(page.getByRole("listitem").filter({ hasText: number })).toContainText(
    `Paid, ${toPay}`,
  );
  const history = await shop.openAdminOrder(number);
  await expect(page.getByTestId("order-total")).toHaveText(toPay);
  await expect(page.getByTestId("order-discount")).toContainText(`−${money(off)}`);
  await expect(history).toContainText(
    `Promotion code: SAVE10 (10 % off your items) −${money(off)}`,
  );
});

test("promotion codes in the cart: each refusal says why and changes no total; a code applied can be removed", async ({
  page,
  shop,
}) => {
  const money = (cents: number, currency: "EUR" | "GBP" = "EUR") => formatMoney(cents, currency);
  await shop.addToCart("echo-buds-pro");
  await page.goto("/cart");
  const { subtotal, vat } = await shop.orderSummary();
  const cartTotal = page.getByTestId("cart-total");
  await expect(cartTotal).toHaveText(money(subtotal + vat));
  const status = page.getByTestId("promotion-code-status");
  for (const [code, message] of [
    ["NOSUCHCODE", "NOSUCHCODE is not a promotion code of this shop."],
    ["summer24", "SUMMER24 has expired."],
    ["big50", "BIG50 needs items worth €500.00 or more"],
    ["x'; drop", "That is not a promotion code."],
  ] as const) {
    await shop.applyPromotionCode(code);
    await expect(status).toContainText(message);
    await expect(cartTotal).toHaveText(money(subtotal + vat));
  }
  await expect(page.getByTestId("applied-promotion")).toHaveCount(0);

  // A fixed amount in euros; the shopper then removes it.
  await shop.applyPromotionCode("TENOFF");
  await expect(status).toHaveText("TENOFF is applied to your cart.");
  await expect(cartTotal).toHaveText(money(subtotal + vat - 1_000));
  await page.getByRole("button", { name: "Remove promotion code TENOFF" }).click();
  await expect(page.getByTestId("applied-promotion")).toHaveCount(0);
  await expect(cartTotal).toHaveText(money(subtotal + vat));

  // In pounds the euro code is refused for its currency.
  await shop.switchCurrency("GBP");
  const gbp = await shop.orderSummary();
  await shop.applyPromotionCode("TENOFF");
  await expect(status).toHaveText("TENOFF is for carts in EUR; your cart is in GBP.");
  await expect(cartTotal).toHaveText(money(gbp.subtotal + gbp.vat, "GBP"));
});
