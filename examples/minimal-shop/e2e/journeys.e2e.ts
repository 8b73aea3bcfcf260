// Go-live scenarios 1 and 2 of the minimal shop, through the emulator's real SDK screens.
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import { EVERYDAY_DEVICE, ServiceSdkDriver } from "../../../e2e/support/service-sdk-driver";
import { SESSION_COOKIE, unseal } from "../lib/session";
import { TEST_ADDRESS } from "../test-support/address";

const EMULATOR = process.env.EMULATOR_URL ?? "http://localhost:5520";

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${EMULATOR}/__emulator${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${path}`).toBe(true);
  return (await response.json()) as T;
}

/** The shop's own record of an order, read from its database file (never through the shop). */
function storedOrder(number: string) {
  const file = process.env.MINI_DATABASE_FILE;
  if (!file) throw new Error("MINI_DATABASE_FILE is not set (scripts/minimal-shop.mjs sets it)");
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT status, total, trade_in_discount AS tradeInDiscount FROM orders WHERE number = ?",
      )
      .get(number) as { status: string; total: number; tradeInDiscount: number } | undefined;
  } finally {
    db.close();
  }
}

// No uncaught exception in any page of a journey.
const pageErrors: string[] = [];
test.beforeEach(({ page }) => {
  pageErrors.length = 0;
  page.on("pageerror", (error) => pageErrors.push(error.message));
});
test.afterEach(() => expect(pageErrors).toEqual([]));

/** The shop's identity in this browser, unsealed with the test's own secret. */
async function identity(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  return unseal(cookie ? decodeURIComponent(cookie.value) : null);
}

const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);

/** Signs in by the form, puts the laptop in the cart and accepts a trade-in in the SDK's wizard. */
async function signInCartAndTradeIn(page: Page): Promise<{ sdk: ServiceSdkDriver; offer: number }> {
  const sdk = await ServiceSdkDriver.attach(page);
  await page.goto("/login");
  const guest = await identity(page);
  expect(guest).toMatchObject({ sessionId: expect.any(String), salt: expect.any(String) });
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Password").fill(process.env.MINI_CUSTOMER_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // Sign-in keeps the guest identity (and so what the service keyed by its hash).
  expect(await identity(page)).toEqual({ ...guest, customerId: "c_1" });
  await page.getByRole("button", { name: "Add Laptop 14 to cart" }).click();
  await expect(page.getByTestId("cart")).toContainText("1 × Laptop 14");
  await sdk.ready();
  await sdk.openWizardFromTeaser("banner");
  const offer = await sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  // The raw identity must appear nowhere in the service's traffic (readiness: privacy.raw-session).
  const raw = await identity(page);
  await control("POST", "/readiness/declare", {
    merchant_id: "m_demo",
    session_id: raw?.sessionId,
    salt: raw?.salt,
  });
  return { sdk, offer };
}

async function fillCheckout(page: Page, sdk: ServiceSdkDriver) {
  await page.goto("/checkout");
  await sdk.ready();
  for (const [field, value] of [
    ["address", "1 Main Street"],
    ["city", "Berlin"],
    ["postal code", "10115"],
    ["country code", "DE"],
  ]) {
    await page.getByLabel(field, { exact: true }).fill(value as string);
  }
  // The SDK reports the option's markup (readiness: markup.*) half a second after it shows.
  await expect
    .poll(async () => {
      const { entries } = await control<{ entries: { request_body?: { kind?: string } }[] }>(
        "GET",
        "/journal?kind=request&limit=2000",
      );
      return entries.some((e) => e.request_body?.kind === "payment_option_markup");
    })
    .toBe(true);
  return cents((await page.getByText("To pay:").textContent()) ?? "");
}

test("scenario 1: Service Pay with a trade-in; the signed webhook marks the order paid", async ({
  page,
}) => {
  const { sdk, offer } = await signInCartAndTradeIn(page);
  const total = await fillCheckout(page, sdk);
  const option = page.locator('input[name="payment_method"][value="service_pay"]');
  await expect(option).toBeEnabled();
  await option.check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  const paid = await sdk.pay();

  await expect(page.getByTestId("order-status")).toHaveText("Paid");
  await expect(page.getByTestId("order-total")).toHaveText(
    `€${((total - offer) / 100).toFixed(2)}`,
  );
  // One amount: what the service collected is what the shopper was shown and the shop stored.
  const { orders } = await control<{
    orders: { order_id: string; amount: number; trade_in_discount: number }[];
  }>("GET", "/orders");
  const serviceOrder = orders.find((o) => o.order_id === paid.order_id);
  expect(serviceOrder?.trade_in_discount).toBe(offer);
  expect((serviceOrder?.amount ?? 0) - (serviceOrder?.trade_in_discount ?? 0)).toBe(total - offer);
  const number = (await page.getByTestId("order-number").textContent()) ?? "";
  expect(storedOrder(number)).toEqual({
    status: "paid",
    total: total - offer,
    tradeInDiscount: offer,
  });
  // The order is paid only by the signed webhook, which the emulator delivered (answered 200).
  const { notifications } = await control<{
    notifications: { order_id: string; status: string }[];
  }>("GET", "/webhooks");
  expect(notifications).toContainEqual(
    expect.objectContaining({ order_id: paid.order_id, status: "delivered" }),
  );
});

test("scenario 2: card payment; the trade-in is registered with the order's amount", async ({
  page,
}) => {
  const { sdk } = await signInCartAndTradeIn(page);
  const total = await fillCheckout(page, sdk);
  await page.getByLabel("Card").check();
  // One 429 on the session look-up before register-purchase: retried after its Retry-After.
  await control("POST", "/faults", {
    endpoint: "session",
    status: 429,
    retry_after_seconds: 1,
    count: 1,
  });
  await page.getByRole("button", { name: "Pay", exact: true }).click();

  await expect(page.getByTestId("order-status")).toHaveText("Paid");
  await expect(page.getByTestId("trade-in-status")).toContainText("registered");
  const number = await page.getByTestId("order-number").textContent();
  const { receipts } = await control<{
    receipts: { order_id: string; order_amount: number; status: number }[];
  }>("GET", "/register-purchases");
  expect(receipts.filter((r) => r.order_id === number)).toEqual([
    expect.objectContaining({ order_amount: total, status: 200 }),
  ]);
  // The card was charged the whole order: the shop's record says the same amount.
  expect(storedOrder(number ?? "")).toEqual({ status: "paid", total, tradeInDiscount: 0 });
  // Sign-out replaces the identity: the next shopper here is another session at the service.
  const before = await identity(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  const after = await identity(page);
  expect(after?.customerId).toBeUndefined();
  expect(after?.sessionId).not.toBe(before?.sessionId);
  expect(after?.salt).not.toBe(before?.salt);
  const { entries } = await control<{ entries: { path?: string; status?: number }[] }>(
    "GET",
    "/journal?kind=request&limit=2000",
  );
  expect(
    entries.filter((e) => e.path?.startsWith("/core/sessions/") && e.status === 429),
  ).toHaveLength(1);
});

test("the service client: a token the service expired is refreshed, not replaced by a login", async ({
  page,
}) => {
  await signInCartAndTradeIn(page);
  const details = {
    email: "ada@example.com",
    billing: TEST_ADDRESS,
    shipping_method: "standard",
  };
  // Each payment start asks the service for the session's accepted valuation (GET /core/sessions/…).
  const startPayment = async () => {
    const response = await page.request.post("/api/service/checkout", { data: details });
    expect(response.status()).toBe(200);
  };
  await startPayment();
  // An hour later on the service's clock the token is refused: refreshed once, never a new login.
  await control("POST", "/clock/advance", { minutes: 61 });
  await startPayment();
  const { entries } = await control<{
    entries: { path?: string; request_body?: { grant_type?: string } }[];
  }>("GET", "/journal?kind=request&limit=2000");
  const grants = entries.filter((e) => e.path === "/oauth2/token/");
  expect(grants.at(-1)?.request_body?.grant_type).toBe("refresh_token");
});

test("the cart is locked while a Service Pay payment is open, until the shopper cancels it", async ({
  page,
}) => {
  const { sdk } = await signInCartAndTradeIn(page);
  await fillCheckout(page, sdk);
  await page.locator('input[name="payment_method"][value="service_pay"]').check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(sdk.paymentModal()).toBeVisible();
  // The shopper leaves the modal open and goes back to shopping.
  await page.goto("/");
  await page.getByRole("button", { name: "Add USB-C cable to cart" }).click();
  const locked = page.getByRole("alert").filter({ hasText: "A payment with the service is open" });
  await expect(locked).toBeVisible();
  await expect(page.getByTestId("cart")).not.toContainText("USB-C cable");
  await locked.getByRole("button", { name: "Cancel the payment to change the cart" }).click();
  await page.getByRole("button", { name: "Add USB-C cable to cart" }).click();
  await expect(page.getByTestId("cart")).toContainText("1 × USB-C cable");
});
