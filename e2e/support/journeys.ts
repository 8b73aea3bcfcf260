// Multi-step journeys shared by the service tests (and the post-purchase ones): each returns what the next
// assertions need. They combine the shop's steps, the SDK driver and the emulator's control API.
import { createHmac } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { CARDS, fillCard, SHOPPER } from "../fixtures";
import { type emulator as EmulatorClient, sessionHashOf } from "./emulator";
import { EVERYDAY_DEVICE, type ServiceSdkDriver } from "./service-sdk-driver";
import type { ShopSteps } from "./shop";

/** The shop's cart as purchase_data gives it (integer cents). */
export type PurchaseCart = {
  currency: string;
  total: number;
  items: { name: string; quantity: number; total: number }[];
};

/** The shop's cart as the SDK reads it: purchase_data from the page, with the shopper's cookie. */
export async function purchaseCart(page: Page): Promise<PurchaseCart> {
  const body = await page.evaluate(async () => {
    const response = await fetch("/api/service/purchase_data", { credentials: "same-origin" });
    return response.json();
  });
  return (body as { purchase: { cart: PurchaseCart } }).purchase.cart;
}

/** Signed in, the everyday device valued and accepted from the home page's banner (no control
 *  API), `slug` in the cart, the checkout open with Service Pay chosen. Returns the offer in
 *  cents, as the wizard showed it. */
/** Signed in (the stored cookie), on the home page with the SDK ready. */
export async function signedInAtHome(sdk: ServiceSdkDriver, shop: ShopSteps): Promise<void> {
  await shop.startSignedIn(SHOPPER);
  await shop.page.goto("/");
  await sdk.ready();
}

export async function checkoutWithOwnOffer(
  sdk: ServiceSdkDriver,
  shop: ShopSteps,
  slug = "aurora-x1",
): Promise<number> {
  await signedInAtHome(sdk, shop);
  await sdk.openWizardFromTeaser("banner");
  const offer = await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  await shop.addToCart(slug);
  await shop.openCheckout();
  await sdk.ready();
  await shop.expectServicePayMode("tradein_valid");
  await shop.servicePayRadio().check();
  return offer;
}

export interface PaidWithService {
  /** the service's order id and the shop's cart id, from `service-payment-completed` */
  order_id: string;
  cart_id: string;
  /** the shop's order number on the confirmation page ("" when the page shows no order) */
  orderNumber: string;
}

/**
 * Starts signed in (default: SHOPPER; ShopSteps.startSignedIn: the stored cookie, not the form),
 * optionally gives the session an accepted trade-in, adds `product` and opens the checkout with
 * the SDK ready. The trade-in: `{ emulator, value }`, `value` cents through the control API (no
 * wizard; only from tests tagged @emulator, the control API resets the emulator), or "wizard",
 * the everyday device valued by the shopper (no control API: runs against a staging service).
 */
export async function openCheckoutWith(
  fixtures: { page: Page; sdk: ServiceSdkDriver; shop: ShopSteps },
  product: string,
  tradeIn?: { emulator: typeof EmulatorClient; value: number } | "wizard",
  account: typeof SHOPPER = SHOPPER,
): Promise<void> {
  const { page, sdk, shop } = fixtures;
  await shop.startSignedIn(account);
  if (tradeIn === "wizard") {
    await valueDevice(sdk);
  } else if (tradeIn) {
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

/** The seed's webhook secret, `<user_id>-<merchant_id>` (emulator/README.md, Seed). */
export const SEED_WEBHOOK_SECRET = "u_demo_admin-m_demo";

/** The order webhook's `X-Service-Signature` of `body`: hex HMAC-SHA256 (contract, Webhooks). */
export function signWebhook(body: string, secret: string = SEED_WEBHOOK_SECRET): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}
export const HOLD_SECONDS = 600;

/** Pays with Service Pay while the emulator holds its webhooks: the order stays pending. */
export async function payWithWebhooksHeld(fixtures: Parameters<typeof payWithServicePay>[0]) {
  await fixtures.emulator.holdWebhooks(HOLD_SECONDS);
  const paid = await payWithServicePay(fixtures);
  await expect(fixtures.shop.orderStatus()).toHaveText("Pending payment");
  return paid;
}

/** Lets the held notification of `cartId` go: the emulator's clock passes the hold. */
export async function releaseHeldWebhook(emulator: typeof EmulatorClient, cartId: string) {
  await emulator.advanceClock({ seconds: HOLD_SECONDS });
  await emulator.tick();
  await emulator.deliveredWebhookFor(cartId);
}

/** Values a device from the home page's banner and accepts the offer; waits until the shop
 *  has noted the accepted trade-in (POST /api/service/trade-in-seen). */
export async function valueDevice(
  sdk: ServiceSdkDriver,
  category = "Phones",
  model = "Aurora 15",
): Promise<number> {
  const page = sdk.page;
  await page.goto("/");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  const noted = page.waitForResponse(
    (r) => r.url().endsWith("/api/service/trade-in-seen") && r.status() === 200,
  );
  const offer = await sdk.valueDevice(category, model);
  await sdk.acceptOffer();
  await noted;
  return offer;
}

/** Pays the cart by test card and returns the order number from the confirmation page. */
export async function payByCard(shop: ShopSteps): Promise<string> {
  const page = shop.page;
  await shop.openCheckout();
  await shop.cardRadio().check();
  await fillCard(page, CARDS.success);
  await shop.placeOrder();
  await expect(page.getByRole("heading", { name: "Thank you for your order" })).toBeVisible();
  await expect(shop.orderStatus()).toHaveText("Paid");
  return (await page.getByTestId("order-number").textContent()) ?? "";
}
