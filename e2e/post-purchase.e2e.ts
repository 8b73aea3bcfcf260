// After the order: reconciliation repairing a Service Pay order whose webhook never
// arrived, and the back office's post-purchase updates (contract: POST /payments/orders/update)
// including a 403, a 400 and a 404, each shown to the admin in plain words.
import type { Page } from "@playwright/test";
import { adminLogin } from "./fixtures";
import { expect, test } from "./support/fixtures";
import { checkoutWithServicePay, tradeInFromBanner } from "./support/journeys";
import type { ServiceSdkDriver } from "./support/service-sdk-driver";
import type { ShopSteps } from "./support/shop";

/** Go-live scenario 1 up to the confirmation page; returns the shop's order number. */
async function payWithService(
  page: Page,
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  quantity = 1,
): Promise<{ number: string; cartId: string }> {
  await shop.startSignedIn();
  await page.goto("/");
  await sdk.ready();
  await tradeInFromBanner(sdk, shop, quantity);
  const paid = await checkoutWithServicePay(sdk, shop);
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  return {
    number: (await page.getByTestId("order-number").textContent()) ?? "",
    cartId: paid.cart_id,
  };
}

async function openAdminOrder(page: Page, number: string) {
  await adminLogin(page);
  await page.getByLabel("Order, email or service order id").fill(number);
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByRole("heading", { name: `Order ${number}` })).toBeVisible();
}

test("reconciliation repairs a Service Pay order whose webhook never arrived @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  // The service cannot reach the shop: every webhook attempt fails.
  await emulator.patchMerchant("m_demo", {
    webhook_base: "http://127.0.0.1:9/api/service/webhooks",
  });
  const { number, cartId } = await payWithService(page, sdk, shop);
  await expect(shop.orderStatus()).toHaveText("Pending payment");
  const notification = await emulator.webhookFor(cartId);
  await expect
    .poll(
      async () =>
        (await emulator.webhooks()).find((n) => n.id === notification.id)?.attempts.length,
    )
    .toBeGreaterThan(0);
  expect((await emulator.webhooks()).find((n) => n.id === notification.id)?.status).not.toBe(
    "delivered",
  );

  await adminLogin(page);
  await page.getByRole("button", { name: "Reconcile with the service" }).click();
  const report = page.getByTestId("reconcile-report");
  await expect(report).toContainText("1 repaired");
  await expect(report).toContainText(
    `shop order ${number} moved from pending to payment_completed`,
  );

  await page.getByLabel("Order, email or service order id").fill(number);
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByTestId("admin-order-status")).toHaveText("Paid");
  await expect(page.getByTestId("status-history")).toContainText(
    "The service changed the status from Pending payment to Paid",
  );

  // A second run finds nothing to repair.
  await page.goto("/admin");
  await page.getByRole("button", { name: "Reconcile with the service" }).click();
  await expect(page.getByTestId("reconcile-report")).toContainText("0 repaired");
});

test("post-purchase updates: partial shipment, cart update, partial return, shipped, returned, and 403/400/404 in plain words @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  test.setTimeout(60_000);
  const { number, cartId } = await payWithService(page, sdk, shop, 2);
  await emulator.deliveredWebhookFor(cartId);
  await page.reload();
  await expect(shop.orderStatus()).toHaveText("Paid");
  await openAdminOrder(page, number);

  const updates = page.getByTestId("order-updates");
  const quantity = updates.getByLabel(/ordered 2/);
  const error = page.getByTestId("order-update-error");
  const result = page.getByTestId("order-update-result");
  const status = page.getByTestId("admin-order-status");

  // 403: the API user lacks scope `updates` (the emulator answers as for basic-admin).
  await emulator.addFault({ endpoint: "order_update", status: 403, count: 1 });
  await quantity.fill("1");
  await updates.getByRole("button", { name: "Send partial shipment" }).click();
  await expect(error).toContainText('lacks the "updates" scope');
  await expect(status).toHaveText("Paid");

  await quantity.fill("1");
  await updates.getByRole("button", { name: "Send partial shipment" }).click();
  await expect(result).toContainText("The service accepted the update: partial_shipment");
  await expect(status).toHaveText("Partially shipped");

  // The cart is edited to one unit at the service.
  await quantity.fill("1");
  await updates.getByRole("button", { name: "Send as updated cart" }).click();
  await expect(result).toContainText("The service accepted the update: cart_update");

  // 400: returning two units of an order that now has one.
  await quantity.fill("2");
  await updates.getByRole("button", { name: "Send partial return" }).click();
  await expect(error).toContainText("rejected this update as invalid");
  await expect(error).toContainText("more than the 1 ordered");

  await updates.getByRole("button", { name: "Mark shipped" }).click();
  await expect(status).toHaveText("Shipped");
  // Done steps are not offered again.
  await expect(updates.getByRole("button", { name: "Mark shipped" })).toHaveCount(0);
  await expect(updates.getByRole("button", { name: "Send partial shipment" })).toHaveCount(0);

  // 404: the service answers that it does not know the order; nothing changes here.
  await emulator.addFault({ endpoint: "order_update", status: 404, count: 1 });
  await updates.getByRole("button", { name: "Mark returned" }).click();
  await expect(error).toContainText("The service does not know order");
  await expect(status).toHaveText("Shipped");

  await updates.getByRole("button", { name: "Mark returned" }).click();
  await expect(status).toHaveText("Returned");
  await expect(updates).toContainText("Nothing more to send: the order is returned.");
  await expect(updates.getByRole("button")).toHaveCount(0);

  const history = page.getByTestId("status-history");
  for (const type of ["partial_shipment", "cart_update", "partial_return", "shipped", "returned"]) {
    await expect(history).toContainText(`Service order update ${type}`);
  }
  const atService = (await emulator.orders()).find((o) => o.cart_id === cartId);
  expect(atService?.status).toBe("returned");
  const kinds = ((atService?.updates ?? []) as { update_type: string }[]).map((u) => u.update_type);
  // The service's own history also holds the payment's status change; the five update types:
  const sent = kinds.filter((k) => k !== "status");
  expect(sent).toEqual(["partial_shipment", "cart_update", "shipped", "returned"]);
});
