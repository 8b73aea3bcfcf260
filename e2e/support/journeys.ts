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
 * Logs in (default: SHOPPER), optionally gives the session an accepted trade-in of `tradeIn.value`
 * cents through the control API (no wizard), adds `product` and opens the checkout with the SDK
 * ready. Pass `tradeIn` only from tests tagged @emulator (the control API resets the emulator).
 */
export async function openCheckoutWith(
  fixtures: { page: Page; sdk: ServiceSdkDriver; shop: ShopSteps },
  product: string,
  tradeIn?: { emulator: typeof EmulatorClient; value: number },
  account: typeof SHOPPER = SHOPPER,
): Promise<void> {
  const { page, sdk, shop } = fixtures;
  await shop.login(account);
  if (tradeIn) {
    await tradeIn.emulator.createTradeIn({
      session_hash: await sessionHashOf(page),
      value: tradeIn.value,
    });
  }
  await shop.addToCart(product);
  await shop.openCheckout();
  await sdk.ready();
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
  await openCheckoutWith(
    fixtures,
    options.product ?? "aurora-x1",
    { emulator, value: options.tradeInValue ?? 15000 },
    options.account,
  );
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  await expect(shop.servicePayRadio()).toBeChecked();
  await shop.placeOrder();
  const paid = await sdk.pay();
  const number = page.getByTestId("order-number");
  const orderNumber = (await number.count()) > 0 ? ((await number.textContent()) ?? "") : "";
  return { ...paid, orderNumber };
}

/** From the home page's banner: values the everyday phone (Phones, Aurora 15) and accepts the
 *  offer, then puts `quantity` aurora-x1 in the cart. */
export async function tradeInFromBanner(
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  quantity = 1,
): Promise<void> {
  await sdk.openWizardFromTeaser("banner");
  await sdk.valueAndAccept("Phones", "Aurora 15");
  await shop.addToCart("aurora-x1", quantity);
}

/** With an accepted trade-in in the session: opens the checkout, chooses Service Pay by its
 *  label, places the order and pays in the SDK's modal. */
export async function checkoutWithServicePay(sdk: ServiceSdkDriver, shop: ShopSteps) {
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.page.getByLabel("Pay with Service").check();
  await shop.placeOrder();
  return sdk.pay();
}
