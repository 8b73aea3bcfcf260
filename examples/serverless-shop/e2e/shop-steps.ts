// The serverless shop's own screens and records for the go-live journeys (`service-emulator/go-live`,
// installed from the emulator's tarball by scripts/serverless-shop.mjs), in its German pages;
// also used by its own journeys (shop.e2e.ts, no-timers.e2e.ts).
import { expect, type Page } from "@playwright/test";
import { createGuestIdentity } from "@service-integration/kit/server";
import pg from "pg";
import {
  centsFromText,
  EmulatorControl,
  EVERYDAY_DEVICE,
  type GoLiveContext,
  type GoLiveShop,
  ServiceSdkDriver,
  type StoredOrder,
} from "service-emulator/go-live";

export const SHOP_URL = process.env.SHOP_URL ?? "http://localhost:5610";
export const EMULATOR_URL = process.env.EMULATOR_URL ?? "http://localhost:5620";
export const emulator = new EmulatorControl(EMULATOR_URL);
export const CUSTOMER = {
  email: "ada@example.com",
  password: process.env.SHOP_CUSTOMER_PASSWORD ?? "",
};

/** A query on the shop's own database (never through the shop's pages). */
export async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The shop's own record of an order, read from its database. */
export async function storedOrder(number: string): Promise<StoredOrder | undefined> {
  const [row] = await query<{ status: string; total: number; trade_in_discount: number }>(
    "SELECT status, total, trade_in_discount FROM orders WHERE number = $1",
    [number],
  );
  return (
    row && { total: row.total, tradeInDiscount: row.trade_in_discount, paid: row.status === "paid" }
  );
}

/** What the card stand-in's processor confirmed for this browser's guest session. */
export async function cardConfirmations(sessionId: string) {
  return query<{ amount: number; order_id: string | null }>(
    "SELECT amount, order_id FROM card_payments WHERE session_id = $1",
    [sessionId],
  );
}

const guests = createGuestIdentity({
  secret: process.env.GUEST_IDENTITY_SECRET ?? "",
  secure: process.env.SHOP_INSECURE_COOKIES !== "1",
});

/** The guest identity in this browser, opened with the test's own copy of the secret. */
export async function identity(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === guests.cookieName);
  return cookie ? guests.read(`${cookie.name}=${cookie.value}`) : null;
}

/** A scheduler's call of a job route (POST with the bearer); its result. */
export async function runJob(page: Page, job: "trade-in-retry" | "notification-sweep") {
  const response = await page.request.post(`/api/service/jobs/${job}`, {
    headers: { authorization: `Bearer ${process.env.JOBS_SECRET}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { result: Record<string, number> }).result;
}

export async function signIn(page: Page, customer: { email: string; password: string }) {
  await page.goto("/anmelden");
  await page.getByLabel("E-Mail", { exact: true }).fill(customer.email);
  await page.getByLabel("Passwort", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
  await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
}

export const SERVERLESS_SHOP: GoLiveShop = {
  async signIn(page, customer, { emulator }) {
    await page.goto("/anmelden");
    const guest = await identity(page);
    expect(guest).toMatchObject({ sessionId: expect.any(String), salt: expect.any(String) });
    await signIn(page, customer);
    // Sign-in rotates the guest identity: a copy of the guest cookie opens nothing after it.
    const signedIn = await identity(page);
    expect(signedIn?.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(signedIn?.sessionId).not.toBe(guest?.sessionId);
    expect(signedIn?.salt).not.toBe(guest?.salt);
    // The raw identity must appear nowhere in the service's traffic (readiness: privacy.raw-session).
    await emulator.call("POST", "/readiness/declare", {
      merchant_id: "m_demo",
      session_id: signedIn?.sessionId,
      salt: signedIn?.salt,
    });
  },
  async addToCart(page) {
    await page.goto("/");
    await page.getByRole("button", { name: "Laptop 14 in den Warenkorb" }).click();
    await expect(page.getByTestId("warenkorb")).toContainText("1 × Laptop 14");
  },
  async openCheckout(page) {
    await page.goto("/kasse");
  },
  async fillCheckout(page, { emulator }) {
    for (const [field, value] of [
      ["Straße und Hausnummer", "Hauptstraße 1"],
      ["Ort", "Berlin"],
      ["Postleitzahl", "10115"],
      ["Ländercode", "DE"],
    ] as const) {
      await page.getByLabel(field, { exact: true }).fill(value);
    }
    // The SDK reports the option's markup (readiness: markup.*) half a second after it shows.
    await expect
      .poll(async () =>
        (await emulator.requests()).some(
          (e) =>
            (e.request_body as { kind?: string } | undefined)?.kind === "payment_option_markup",
        ),
      )
      .toBe(true);
  },
  async readAmountToPay(page) {
    return centsFromText((await page.getByText("Zu zahlen:").textContent()) ?? "");
  },
  async chooseServicePay(page) {
    const option = page.locator('input[name="payment_method"][value="service_pay"]');
    await expect(option).toBeEnabled();
    await option.check();
  },
  async chooseCard(page) {
    await page.getByLabel("Karte", { exact: true }).check();
  },
  async placeOrder(page) {
    await page.getByRole("button", { name: "Bezahlen", exact: true }).click();
  },
  async readConfirmation(page) {
    await expect(page.getByTestId("order-status")).toHaveText("Bezahlt");
    return {
      orderNumber: (await page.getByTestId("order-number").textContent()) ?? "",
      total: centsFromText((await page.getByTestId("order-total").textContent()) ?? ""),
    };
  },
  storedOrder,
};

/** Signs in by the form, puts the laptop in the cart and accepts a trade-in in the SDK's wizard. */
export async function signInCartAndTradeIn(page: Page): Promise<GoLiveContext> {
  const context = { emulator, sdk: await ServiceSdkDriver.attach(page) };
  await SERVERLESS_SHOP.signIn?.(page, CUSTOMER, context);
  await SERVERLESS_SHOP.addToCart(page, context);
  await context.sdk.ready();
  await context.sdk.openWizardFromTeaser("banner");
  await context.sdk.valueAndAccept(EVERYDAY_DEVICE.category, EVERYDAY_DEVICE.model);
  return context;
}

/** From the cart to the filled checkout form. */
export async function toFilledCheckout(page: Page, context: GoLiveContext): Promise<number> {
  await SERVERLESS_SHOP.openCheckout(page, context);
  await context.sdk.ready();
  await SERVERLESS_SHOP.fillCheckout(page, context);
  return SERVERLESS_SHOP.readAmountToPay(page, context);
}
