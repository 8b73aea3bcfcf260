import type { APIRequestContext } from "@playwright/test";
import { A_MESSAGE, expect, type Shop, test } from "./fixtures";

const SMALL = "Test phone: offer of 10.00 (test)";

type Received = { signature_valid: boolean; answered: number; body: Record<string, unknown> };

async function webhookFor(request: APIRequestContext, orderId: string): Promise<Received> {
  let found: Received | undefined;
  await expect
    .poll(async () => {
      const { received } = (await (
        await request.get("/__emulator/test-merchant/webhooks")
      ).json()) as {
        received: Received[];
      };
      found = received.find((r) => r.body.order_id === orderId);
      return found !== undefined;
    })
    .toBe(true);
  return found as Received;
}

async function payWithService(shop: Shop) {
  const { page } = shop;
  await page.getByLabel("Pay with Service").check();
  await page.getByRole("button", { name: "Place order" }).click();
  const modal = shop.payment();
  await expect(modal).toBeVisible();
  return modal;
}

test("openPayment: summary, a way to pay, listeners awaited, events, order, webhook, confirmUrl", async ({
  shop,
  page,
  request,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  const modal = await payWithService(shop);
  // Items, the trade-in discount and the amount left to pay (cart 798.60 - 10.00).
  await expect(modal.getByRole("table", { name: "Items" })).toContainText("Vertex Book 16");
  await expect(modal.locator("[data-amount=cart-total]")).toHaveText("€798.60");
  await expect(modal.locator("[data-amount=trade-in-discount]")).toHaveText("−€10.00");
  await expect(modal.locator("[data-amount=left-to-pay]")).toHaveText("€788.60");
  await modal.getByRole("radio", { name: "Bank transfer" }).check();
  // A slow merchant listener is awaited before the payment completes.
  await page.evaluate(() => {
    (
      window as unknown as {
        Service: { addReadyToPlaceOrderListener(cb: () => Promise<void>): void };
      }
    ).Service.addReadyToPlaceOrderListener(
      () =>
        new Promise((resolve) =>
          setTimeout(() => {
            sessionStorage.setItem("slowListenerDone", String(Date.now()));
            resolve();
          }, 300),
        ),
    );
  });
  await Promise.all([
    page.waitForURL(/\/confirmation$/),
    modal.getByRole("button", { name: "Pay now" }).click(),
  ]);
  await shop.ready();

  const log = await shop.eventLog();
  const names = log.map((e) => e.name);
  expect(names).toEqual([
    "service-ready",
    "service-new-user-valuation-started",
    "service-valuation-updated",
    "service-modal-closed",
    "servicepay-payment-method-selected",
    "service-ready-to-place-order",
    "service-payment-completed",
    "service-ready",
  ]);
  const ready = log.find((e) => e.name === "service-ready-to-place-order")?.detail as {
    message: string;
    cart_id: string;
    order_id: string;
  };
  expect(ready).toEqual({
    message: A_MESSAGE,
    cart_id: expect.any(String),
    order_id: expect.any(String),
  });
  expect(log.find((e) => e.name === "service-payment-completed")?.detail).toMatchObject({
    message: A_MESSAGE,
    order_id: ready.order_id,
    cart_id: ready.cart_id,
  });
  expect(await page.evaluate(() => sessionStorage.getItem("slowListenerDone"))).not.toBeNull();

  // The thank-you page: the trade-in is used, so the teaser invites a new valuation.
  await expect(shop.teasers("thank-you")).toHaveCount(2);
  expect(await shop.hasActiveTradeIn()).toBe(false);

  // The service recorded the order; the trade-in is used.
  const { orders } = (await (await request.get("/__emulator/orders")).json()) as {
    orders: Record<string, unknown>[];
  };
  const order = orders.find((o) => o.order_id === ready.order_id);
  expect(order).toMatchObject({
    status: "payment_completed",
    amount: 79860,
    currency: "EUR",
    trade_in_discount: 1000,
    cart_id: ready.cart_id,
    customer_id: `cust-${shop.key}`,
  });

  // The signed webhook reached the merchant's receiver and was accepted.
  const webhook = await webhookFor(request, ready.order_id);
  expect(webhook).toMatchObject({ signature_valid: true, answered: 200 });
  expect(webhook.body).toMatchObject({
    id: expect.stringMatching(/^wh_/),
    event: "order.payment_completed",
    order_id: ready.order_id,
    cart_id: ready.cart_id,
    status: "payment_completed",
    amount: 79860,
    currency: "EUR",
    trade_in_discount: 1000,
    customer_id: `cust-${shop.key}`,
  });
});

test("a failing ready-to-place-order listener does not lose the payment", async ({
  shop,
  page,
  request,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  await page.evaluate(() => {
    (window as unknown as { __failReadyListener: boolean }).__failReadyListener = true;
  });
  const modal = await payWithService(shop);
  await Promise.all([
    page.waitForURL(/\/confirmation$/),
    modal.getByRole("button", { name: "Pay now" }).click(),
  ]);
  await shop.ready();
  const log = await shop.eventLog();
  const ready = log.find((e) => e.name === "service-ready-to-place-order")?.detail as {
    order_id: string;
  };
  expect(log.map((e) => e.name)).toContain("service-payment-completed");
  expect((await webhookFor(request, ready.order_id)).answered).toBe(200);
  // The merchant is told which of its listeners failed, not left to guess.
  expect(shop.warnings.join("\n")).toContain("a ready-to-place-order listener failed");
});

test("a cart changed since the session saw it: purchase-updated, and the modal shows the new cart", async ({
  shop,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  await shop.setState({ cart: shop.cart(30000) });
  const modal = await payWithService(shop);
  await expect(modal.locator("[data-amount=cart-total]")).toHaveText("€300.00");
  await expect(modal.locator("[data-amount=left-to-pay]")).toHaveText("€290.00");
  const updated = (await shop.events()).filter((e) => e.name === "service-purchase-updated");
  expect(updated).toHaveLength(1);
  expect(updated[0]?.detail).toMatchObject({ session_id: expect.stringMatching(/\|002$/) });
  // Closing the payment modal fires service-modal-closed and nothing is paid.
  await modal.getByRole("button", { name: "Close" }).click();
  await expect(modal).toBeHidden();
  expect((await shop.events()).at(-1)).toMatchObject({
    name: "service-modal-closed",
    detail: { message: A_MESSAGE, modal: "payment" },
  });
  expect(await shop.hasActiveTradeIn()).toBe(true);
});

test("a shop whose callbacks answer JSON only when asked for it (content negotiation) is asked for JSON: its shopper values a device and the window shows its cart", async ({
  shop,
}) => {
  // Contract, Merchant endpoints: both callbacks answer JSON. A shop's framework may choose its
  // answer by the request's Accept header, HTML unless JSON is asked for: the SDK asks for JSON.
  await shop.setState({ negotiatesContent: true });
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  const modal = await payWithService(shop);
  await expect(modal.locator("[data-amount=cart-total]")).toHaveText("€798.60");
  await expect(modal.locator("[data-amount=left-to-pay]")).toHaveText("€788.60");
});

test("openPayment called again while the window is open asks nothing again: no purchase_data, the window as it was", async ({
  shop,
  page,
}) => {
  await shop.open();
  await shop.valuate("Test devices", SMALL);
  const modal = await payWithService(shop);
  const leftToPay = modal.locator("[data-amount=left-to-pay]");
  await expect(leftToPay).toBeVisible();
  const shown = await leftToPay.textContent();
  let purchaseData = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/purchase_data")) purchaseData += 1;
  });
  // Awaited: openPayment resolves once whatever it started has finished.
  await page.evaluate(() =>
    (window as unknown as { Service: { openPayment(): Promise<void> } }).Service.openPayment(),
  );
  expect(purchaseData).toBe(0);
  await expect(leftToPay).toHaveText(shown ?? "");
  await expect(modal.getByRole("button", { name: "Pay now" })).toBeEnabled();
});

test("openPayment when Service Pay is not possible explains why; an empty cart says so", async ({
  shop,
  page,
}) => {
  await shop.open();
  await page.evaluate(() =>
    (window as unknown as { Service: { openPayment(): void } }).Service.openPayment(),
  );
  await expect(shop.payment().getByRole("alert")).toHaveText(
    "Service Pay cannot be used for this order.",
  );
  // The service's info text, with its <strong> kept and nothing else rendered as HTML.
  await expect(shop.payment().locator("strong")).toHaveText("right away");
  await page.keyboard.press("Escape");
  await expect(shop.payment()).toBeHidden();
  // A trade-in that cannot pay for this cart (tradein_invalid / cart_below_limit) cannot be paid
  // with either: the modal says why instead of offering "Pay now".
  await shop.valuate("Test devices", "Test phone: offer of 2,000.00 (test)");
  expect((await shop.details()).mode).toBe("tradein_invalid");
  await page.evaluate(() =>
    (window as unknown as { Service: { openPayment(): void } }).Service.openPayment(),
  );
  await expect(shop.payment().getByRole("alert")).toHaveText(
    "Service Pay cannot be used for this order.",
  );
  await expect(shop.payment().getByRole("button", { name: "Pay now" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(shop.payment()).toBeHidden();
  await shop.valuate("Test devices", SMALL);
  await shop.setState({ cart: null });
  await page.evaluate(() =>
    (window as unknown as { Service: { openPayment(): void } }).Service.openPayment(),
  );
  await expect(shop.payment().getByRole("alert")).toHaveText("Your cart is empty.");
});
