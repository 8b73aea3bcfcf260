// The order webhook as the shopper meets it (contract, Events › Webhook): late, retried, before
// the merchant's pending order exists, and forged; the confirmation page waits and the back
// office shows one change. The emulator's control API holds and repeats its real, signed
// notifications. Deliveries many at once and out of order are protocol storms a page adds nothing
// to: webhook-storms.e2e.ts sends them over HTTP.
import type { Locator } from "@playwright/test";
import { formatMoney } from "../lib/shop/money";
import { expect, test } from "./support/fixtures";
import {
  HOLD_SECONDS,
  payWithServicePay,
  payWithWebhooksHeld,
  releaseHeldWebhook,
  signWebhook,
} from "./support/journeys";
import { notificationsOfCart } from "./support/shop-db";

const WEBHOOK_PATH = "/api/service/webhooks/order";
/** The admin order's history moved to Paid exactly once. */
async function expectPaidOnce(history: Locator) {
  await expect(
    history
      .getByRole("listitem")
      .filter({ hasText: "changed the status from Pending payment to Paid" }),
  ).toHaveCount(1);
}

test("a late webhook: the confirmation page waits, then shows the payment confirmed @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const paid = await payWithWebhooksHeld({ page, sdk, shop, emulator });
  const message = page.getByTestId("payment-status-message");
  await expect(message).toContainText("Waiting for the service to confirm your payment");
  await expect(shop.tradeInDiscount()).toHaveCount(0);
  // Before the notification, the page still says which discount the payment applied.
  await expect(page.getByTestId("trade-in-applied")).toHaveText("Your trade-in discount: −€150.00");

  await releaseHeldWebhook(emulator, paid.cart_id);
  // No reload: the page refreshes itself while the order is pending.
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(message).toHaveText("Payment confirmed.");
  await expect(shop.tradeInDiscount()).toHaveText("−€150.00");
});

test("a failed delivery is retried: the page waits, then shows the order paid, applied once @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
  service,
}) => {
  // The service's clock stands still, so no retry fires before the test has seen the page wait;
  // the first attempt never reaches the shop, the first retry does but its 200 is lost, so the
  // shop receives the same notification twice (Events › Webhook: the service retries on failure,
  // the receiver must be idempotent).
  await service.stopClock();
  await service.failWebhookDeliveries(["unreachable", "answer_lost"]);
  const paid = await payWithServicePay({ page, sdk, shop, emulator });
  const attempts = async () =>
    (await service.webhooks()).find((n) => n.cart_id === paid.cart_id)?.attempts ?? [];
  const statuses = async () => (await attempts()).map((a) => a.status);
  await expect.poll(statuses).toEqual([0]);

  const message = page.getByTestId("payment-status-message");
  await expect(message).toContainText("Waiting for the service to confirm your payment");
  await expect(shop.orderStatus()).toHaveText("Pending payment");
  await expect(shop.tradeInDiscount()).toHaveCount(0);

  // The first retry is due 10 s later on the service's clock (emulator/README.md, Webhooks).
  await service.advanceTime({ seconds: 10 });
  // No reload: the page refreshes itself while the order is pending.
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(message).toHaveText("Payment confirmed.");
  await expect(shop.tradeInDiscount()).toHaveText("−€150.00");
  await expect.poll(statuses).toEqual([0, 0]);

  // The second retry brings the same notification again; the shop answers 200 and stores nothing.
  await service.advanceTime({ seconds: 20 });
  await expect.poll(statuses).toEqual([0, 0, 200]);
  expect((await attempts()).map((a) => a.kind)).toEqual(["scheduled", "scheduled", "scheduled"]);

  // The inspector lists the notifications the shop stored: one, applied.
  await page.getByRole("button", { name: /integration inspector/ }).click();
  const drawer = page.getByTestId("integration-inspector");
  const stored = drawer.getByRole("listitem").filter({ hasText: "POST /order" });
  await expect(stored).toHaveCount(1);
  await expect(stored).toContainText(`order ${paid.orderNumber}: applied`);
  const history = await shop.openAdminOrder(paid.orderNumber);
  await expect(page.getByTestId("admin-order-status")).toHaveText("Paid");
  await expectPaidOnce(history);
});

test("a webhook that arrives before the pending order exists is kept and applied @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  // The page's ready-to-place-order call fails (every retry): the SDK pays anyway, so the
  // webhook reaches the shop while no order exists for the cart.
  let refused = 0;
  await page.route("**/api/service/pending-order", (route) => {
    refused += 1;
    return route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: "unavailable", error_description: "test: shop too slow" }),
    });
  });
  const paid = await payWithServicePay({ page, sdk, shop, emulator });
  expect(refused).toBeGreaterThan(0);
  const delivered = await emulator.deliveredWebhookFor(paid.cart_id);
  expect(delivered.attempts.map((a) => a.status)).toEqual([200]);

  // The kept, signed notification proves the payment: the confirmation page creates the order
  // from the details kept at payment start and applies the notification (no reload needed).
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(shop.tradeInDiscount()).toHaveText("−€150.00");
  const orderNumber = (await page.getByTestId("order-number").textContent()) ?? "";
  const history = await shop.openAdminOrder(orderNumber);
  await expectPaidOnce(history);
});

test("the confirmation page waits for a late webhook even before the order exists @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  await page.route("**/api/service/pending-order", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: "{}" }),
  );
  await emulator.holdWebhooks(HOLD_SECONDS);
  const paid = await payWithServicePay({ page, sdk, shop, emulator });
  await expect(page.getByRole("heading", { name: "Confirming your payment" })).toBeVisible();
  await expect(page.getByTestId("payment-status-message")).toContainText("Waiting");
  await expect(page.getByTestId("trade-in-applied")).toHaveText("Your trade-in discount: −€150.00");

  await releaseHeldWebhook(emulator, paid.cart_id);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
});

test("forged webhooks are answered 403 and change nothing; the genuine one then applies @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
  request,
}) => {
  const paid = await payWithWebhooksHeld({ page, sdk, shop, emulator });
  const notification = await emulator.webhookFor(paid.cart_id);

  // Signed with the client secret instead of <user_id>-<merchant_id> (the emulator's own forgery).
  const wrong = await emulator.sendWithWrongSignature(notification.id);
  expect(wrong.attempt.status).toBe(403);

  const genuine = notification.body;
  const tampered = genuine.replace('"payment_completed"', '"cancelled"');
  expect(tampered).not.toBe(genuine);
  const forgeries: [string, string, Record<string, string>][] = [
    ["no signature", genuine, {}],
    ["an empty signature", genuine, { "x-service-signature": "" }],
    [
      "the genuine signature on other bytes",
      tampered,
      { "x-service-signature": signWebhook(genuine) },
    ],
    [
      "signed with the client secret",
      tampered,
      { "x-service-signature": signWebhook(tampered, "demo-client-secret") },
    ],
    ["a prefixed signature", genuine, { "x-service-signature": `sha256=${signWebhook(genuine)}` }],
    ["64 zeros", genuine, { "x-service-signature": "0".repeat(64) }],
  ];
  for (const [name, body, headers] of forgeries) {
    const response = await request.post(WEBHOOK_PATH, {
      data: body,
      headers: { "content-type": "application/json", ...headers },
    });
    expect(response.status(), name).toBe(403);
  }

  await page.reload();
  await expect(shop.orderStatus()).toHaveText("Pending payment");
  const history = await shop.openAdminOrder(paid.orderNumber);
  await expect(page.getByTestId("admin-order-status")).toHaveText("Pending payment");
  await expect(history).not.toContainText("changed the status");

  // The genuine notification still applies afterwards.
  const redelivered = await emulator.redeliver(notification.id);
  expect(redelivered.attempt.status).toBe(200);
  // A 200 means stored; the apply follows it: the admin page shows it on a reload.
  await expect
    .poll(async () => {
      await page.reload();
      return page.getByTestId("admin-order-status").textContent();
    })
    .toBe("Paid");
  await expectPaidOnce(history);
});

test("a signed payment whose trade-in discount is not the accepted valuation holds the order, never paid @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
  request,
}) => {
  const paid = await payWithWebhooksHeld({ page, sdk, shop, emulator });
  const notification = await emulator.webhookFor(paid.cart_id);
  const genuine = JSON.parse(notification.body) as { id: string; trade_in_discount: number };
  // A service (or a bug on its side) taking 1 cent more off than the valuation the shopper
  // accepted: the amount, currency and range all match, and the signature is genuine.
  const body = JSON.stringify({
    ...genuine,
    id: `${genuine.id}-more`,
    trade_in_discount: genuine.trade_in_discount + 1,
  });
  const signature = signWebhook(body);
  const response = await request.post(WEBHOOK_PATH, {
    data: body,
    headers: { "content-type": "application/json", "x-service-signature": signature },
  });
  expect(response.status()).toBe(200);
  // A 200 means stored; the apply that follows it holds the order.
  await expect
    .poll(() => notificationsOfCart(paid.cart_id).map((n) => n.outcome))
    .toContain("held");

  const history = await shop.openAdminOrder(paid.orderNumber);
  await expect(page.getByTestId("admin-order-status")).toHaveText("Held: payment does not match");
  await expect(history).toContainText(
    `trade-in discount ${formatMoney(genuine.trade_in_discount + 1, "EUR")}, the accepted valuation of trade-in`,
  );
  await expect(history).toContainText(`allows ${formatMoney(genuine.trade_in_discount, "EUR")}`);

  // The genuine notification arriving afterwards does not lift the hold: a person decides.
  await releaseHeldWebhook(emulator, paid.cart_id);
  // Once it was applied (kept, not applied over the hold), not merely stored.
  await expect
    .poll(() => notificationsOfCart(paid.cart_id).map((n) => n.outcome))
    .toEqual(["held", "recorded"]);
  await page.reload();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Held: payment does not match");
});
