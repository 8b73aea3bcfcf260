// Multi-step journeys shared by the service tests (and issue #6's): each returns what the next
// assertions need. They combine the shop's steps, the SDK driver and the emulator's control API.
import { expect, type Page } from "@playwright/test";
import { SHOPPER } from "../fixtures";
import { type emulator as EmulatorClient, sessionHashOf } from "./emulator";
import type { ServiceSdkDriver } from "./service-sdk-driver";
import type { ShopSteps } from "./shop";

export interface PaidWithService {
  /** the service's order id and the shop's cart id, from `service-payment-completed` */
  order_id: string;
  cart_id: string;
  /** the shop's order number on the confirmation page ("" when the page shows no order) */
  orderNumber: string;
}

/**
 * Logs in, gives the session an accepted trade-in through the control API (no wizard), adds a
 * product, chooses Service Pay at the checkout and pays in the SDK's modal. Ends on the
 * confirmation page. `tradeInValue` in cents (default 150.00); the product must cost more.
 */
export async function payWithServicePay(
  fixtures: { page: Page; sdk: ServiceSdkDriver; shop: ShopSteps; emulator: typeof EmulatorClient },
  options: { product?: string; tradeInValue?: number; account?: typeof SHOPPER } = {},
): Promise<PaidWithService> {
  const { page, sdk, shop, emulator } = fixtures;
  await shop.login(options.account ?? SHOPPER);
  await emulator.createTradeIn({
    session_hash: await sessionHashOf(page),
    value: options.tradeInValue ?? 15000,
  });
  await shop.addToCart(options.product ?? "aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  await expect(shop.servicePayRadio()).toBeChecked();
  await shop.placeOrder();
  const paid = await sdk.pay();
  const number = page.getByTestId("order-number");
  const orderNumber = (await number.count()) > 0 ? ((await number.textContent()) ?? "") : "";
  return { ...paid, orderNumber };
}
