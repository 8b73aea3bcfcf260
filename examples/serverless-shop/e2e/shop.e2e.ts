// The serverless shop's own journeys beyond the go-live scenarios (go-live.e2e.ts), through the
// emulator's real SDK screens (the driver its tarball ships, `service-emulator/go-live`): the
// submit trap with a client onSubmit, a second shopper at the same browser, and how its service
// client behaves (a 429's Retry-After, a token the service expired).
import { expect, test } from "@playwright/test";
import { TEST_ADDRESS } from "../test-support/address";
import {
  CUSTOMER,
  cardConfirmations,
  emulator,
  identity,
  query,
  SERVERLESS_SHOP as SHOP,
  signInCartAndTradeIn,
  storedOrder,
  toFilledCheckout,
} from "./shop-steps";

// No uncaught exception in any page of a journey.
const pageErrors: string[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on("pageerror", (error) => pageErrors.push(error.message));
});
test.afterEach(() => expect(pageErrors).toEqual([]));

test("the submit trap: with Service Pay chosen, submitting never calls the card SDK; with the card, once", async ({
  page,
}) => {
  const context = await signInCartAndTradeIn(page);
  const total = await toFilledCheckout(page, context);
  const { sessionId = "" } = (await identity(page)) ?? {};
  await SHOP.chooseServicePay(page, context);
  // The checkout form's own onSubmit would confirm a card payment: the kit's option takes the
  // submit first and opens the service's payment window instead.
  await SHOP.placeOrder(page, context);
  await expect(context.sdk.paymentModal()).toBeVisible();
  expect(await cardConfirmations(sessionId)).toEqual([]);
  // The shopper changes their mind: the card, confirmed once in the browser, then the order.
  await context.sdk.closePaymentModal();
  await SHOP.chooseCard(page, context);
  await SHOP.placeOrder(page, context);
  const { orderNumber } = await SHOP.readConfirmation(page, context);
  const [order] = await query<{ id: string }>("SELECT id FROM orders WHERE number = $1", [
    orderNumber,
  ]);
  expect(await cardConfirmations(sessionId)).toEqual([{ amount: total, order_id: order?.id }]);
  expect(await storedOrder(orderNumber)).toEqual({ paid: true, total, tradeInDiscount: 0 });
});

test("a second shopper at the same browser never sees the first one's trade-in, cart or checkout", async ({
  page,
}) => {
  // Shopper A: a trade-in, a cart, a checkout started with the service (its details kept).
  const context = await signInCartAndTradeIn(page);
  await toFilledCheckout(page, context);
  await SHOP.chooseServicePay(page, context);
  await SHOP.placeOrder(page, context);
  await expect(context.sdk.paymentModal()).toBeVisible();
  await context.sdk.closePaymentModal();
  const a = await identity(page);
  const kept = (sessionId: string | undefined) =>
    query("SELECT 1 FROM service_checkouts WHERE session_id = $1", [sessionId]);
  expect(await kept(a?.sessionId)).toHaveLength(1);
  await page.goto("/");
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page.getByRole("link", { name: "Anmelden" })).toBeVisible();

  // Shopper B at the same browser: another guest identity, nothing of A's.
  const b = await identity(page);
  expect(b?.sessionId).not.toBe(a?.sessionId);
  expect(b?.salt).not.toBe(a?.salt);
  await context.sdk.ready();
  expect(await context.sdk.hasActiveTradeIn()).toBe(false);
  await expect(page.getByTestId("warenkorb")).toBeEmpty();
  await page.goto("/kasse");
  await expect(page.getByText("Ihr Warenkorb ist leer.")).toBeVisible();
  expect(await kept(b?.sessionId)).toEqual([]);

  // B signs up: a new identity for B's account (rotated at sign-in), still with nothing of A's.
  await page.goto("/anmelden");
  await page.getByLabel("Name").fill("Bea Beispiel");
  await page.getByLabel("E-Mail-Adresse").fill(`bea-${Date.now()}@example.com`);
  await page.getByLabel("Neues Passwort").fill("ein langes Passwort 42");
  await page.getByRole("button", { name: "Konto anlegen" }).click();
  await expect(page.getByTestId("angemeldet")).toHaveText("Bea Beispiel");
  const signedUp = await identity(page);
  expect(signedUp?.sessionId).not.toBe(b?.sessionId);
  expect(signedUp?.sessionId).not.toBe(a?.sessionId);
  await context.sdk.ready();
  expect(await context.sdk.hasActiveTradeIn()).toBe(false);
  await expect(page.getByTestId("warenkorb")).toBeEmpty();
});

test("a sign-in over another customer's session at the same browser starts a new one: nothing of A's reaches B", async ({
  page,
}) => {
  // Shopper A signed in: a trade-in, a cart, a checkout started with the service.
  const context = await signInCartAndTradeIn(page);
  await toFilledCheckout(page, context);
  await SHOP.chooseServicePay(page, context);
  await SHOP.placeOrder(page, context);
  await context.sdk.closePaymentModal();
  const a = await identity(page);
  // B signs up (and so in) at the same browser without A signing out.
  await page.goto("/anmelden");
  await page.getByLabel("Name").fill("Bea Beispiel");
  await page.getByLabel("E-Mail-Adresse").fill(`bea-over-${Date.now()}@example.com`);
  await page.getByLabel("Neues Passwort").fill("ein langes Passwort 42");
  await page.getByRole("button", { name: "Konto anlegen" }).click();
  await expect(page.getByTestId("angemeldet")).toHaveText("Bea Beispiel");
  const b = await identity(page);
  expect(b?.sessionId).not.toBe(a?.sessionId);
  expect(b?.salt).not.toBe(a?.salt);
  await context.sdk.ready();
  expect(await context.sdk.hasActiveTradeIn()).toBe(false);
  await expect(page.getByTestId("warenkorb")).toBeEmpty();
  const purchase = await page.request.get("/api/service/purchase_data");
  expect(await purchase.json()).toEqual({ purchase: null });
});

test("register-purchase is retried after a 429's Retry-After", async ({ page }) => {
  const context = await signInCartAndTradeIn(page);
  const total = await toFilledCheckout(page, context);
  await SHOP.chooseCard(page, context);
  // One 429 on the session look-up before register-purchase: retried after its Retry-After.
  await emulator.call("POST", "/faults", {
    endpoint: "session",
    status: 429,
    retry_after_seconds: 1,
    count: 1,
  });
  await SHOP.placeOrder(page, context);
  const { orderNumber } = await SHOP.readConfirmation(page, context);
  await expect(page.getByTestId("trade-in-status")).toHaveAttribute("data-outcome", "registered");
  expect(await emulator.receipts(orderNumber)).toEqual([
    expect.objectContaining({ order_amount: total, status: 200 }),
  ]);
  expect(
    (await emulator.requests()).filter(
      (e) => e.path?.startsWith("/core/sessions/") && e.status === 429,
    ),
  ).toHaveLength(1);
});

test("the service client: a token the service expired is refreshed, not replaced by a login", async ({
  page,
}) => {
  await signInCartAndTradeIn(page);
  const details = { email: CUSTOMER.email, billing: TEST_ADDRESS, shipping_method: "standard" };
  // Each payment start asks the service for the session's accepted valuation (GET /core/sessions/…).
  const startPayment = async () => {
    const response = await page.request.post("/api/service/checkout", { data: details });
    expect(response.status()).toBe(200);
  };
  await startPayment();
  // An hour later on the service's clock the token is refused: refreshed once, never a new login.
  await emulator.call("POST", "/clock/advance", { minutes: 61 });
  await startPayment();
  const grants = (await emulator.requests()).filter((e) => e.path === "/oauth2/token/");
  expect((grants.at(-1)?.request_body as { grant_type?: string } | undefined)?.grant_type).toBe(
    "refresh_token",
  );
});
