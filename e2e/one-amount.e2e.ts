// One amount across the parties (docs/decisions/delivery-in-the-cart.md): for a Service Pay
// order, every "to pay" the shopper reads in the shop, what the service's payment window says
// is left to pay, what the service's order records as collected and what the shop's database
// records as paid are the same number of cents. Each is read from its own party (the page, the
// window, the emulator's order and journal, the shop's SQLite file), never derived from another.
import { formatMoney } from "../lib/shop/money";
import { sessionHashOf } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { storedOrder } from "./support/shop-db";

const PRODUCT = { slug: "aurora-x1", name: "Aurora X1" };

/** The amount in a sentence such as "… €383.99 to pay with Service Pay …" (its <strong>). */
const strong = (testId: string) => `[data-testid="${testId}"] strong`;

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
