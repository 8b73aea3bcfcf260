// The minimal shop's own screens and records for the go-live journeys (`service-emulator/go-live`,
// installed from the emulator's tarball by scripts/minimal-shop.mjs): what any integrator writes
// for their shop. Also used by this shop's own journeys (shop.e2e.ts).
import { expect, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { unsealData } from "iron-session";
import { centsFromText, type GoLiveShop, type StoredOrder } from "service-emulator/go-live";

export const SHOP_URL = process.env.MINI_SHOP_URL ?? "http://localhost:5510";
export const EMULATOR_URL = process.env.EMULATOR_URL ?? "http://localhost:5520";
export const CUSTOMER = {
  email: "ada@example.com",
  password: process.env.MINI_CUSTOMER_PASSWORD ?? "",
};

/** The shop's own record of an order, read from its database file (never through the shop). */
export async function storedOrder(number: string): Promise<StoredOrder | undefined> {
  const file = process.env.MINI_DATABASE_FILE;
  if (!file) throw new Error("MINI_DATABASE_FILE is not set (scripts/minimal-shop.mjs sets it)");
  const db = new Database(file, { readonly: true });
  try {
    const row = db
      .prepare('SELECT status, total, "tradeInDiscount" FROM "Order" WHERE number = ?')
      .get(number) as { status: string; total: number; tradeInDiscount: number } | undefined;
    return (
      row && { total: row.total, tradeInDiscount: row.tradeInDiscount, paid: row.status === "paid" }
    );
  } finally {
    db.close();
  }
}

/** The shop's identity in this browser: its iron-session cookie (the quick start's
 *  lib/session.ts), unsealed with the test's own secret. */
export async function identity(
  page: Page,
): Promise<{ sessionId: string; salt: string; customerId?: string } | null> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "shop_session");
  if (!cookie) return null;
  const { sessionId, salt, customerId } = await unsealData<Record<string, string | undefined>>(
    decodeURIComponent(cookie.value),
    { password: process.env.SESSION_SECRET ?? "" },
  );
  if (!sessionId || !salt) return null;
  return customerId ? { sessionId, salt, customerId } : { sessionId, salt };
}

export const MINIMAL_SHOP: GoLiveShop = {
  async signIn(page, customer) {
    await page.goto("/login");
    const guest = await identity(page);
    expect(guest).toMatchObject({ sessionId: expect.any(String), salt: expect.any(String) });
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password").fill(customer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    // Sign-in replaces the guest identity, so a copy of the cookie taken before it opens nothing.
    const signedIn = await identity(page);
    expect(signedIn?.customerId).toBe("c_1");
    expect(signedIn?.sessionId).not.toBe(guest?.sessionId);
    expect(signedIn?.salt).not.toBe(guest?.salt);
  },
  async addToCart(page) {
    await page.getByRole("button", { name: "Add Laptop 14 to cart" }).click();
    await expect(page.getByTestId("cart")).toContainText("1 × Laptop 14");
  },
  async openCheckout(page) {
    await page.goto("/checkout");
  },
  async fillCheckout(page, { emulator }) {
    for (const [field, value] of [
      ["address", "1 Main Street"],
      ["city", "Berlin"],
      ["postal code", "10115"],
      ["country code", "DE"],
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
    return centsFromText((await page.getByText("To pay:").textContent()) ?? "");
  },
  async chooseServicePay(page) {
    const option = page.locator('input[name="payment_method"][value="service_pay"]');
    await expect(option).toBeEnabled();
    await option.check();
  },
  async chooseCard(page) {
    await page.getByLabel("Card").check();
  },
  async placeOrder(page) {
    await page.getByRole("button", { name: "Pay", exact: true }).click();
  },
  async readConfirmation(page) {
    await expect(page.getByTestId("order-status")).toHaveText("Paid");
    return {
      orderNumber: (await page.getByTestId("order-number").textContent()) ?? "",
      total: centsFromText((await page.getByTestId("order-total").textContent()) ?? ""),
    };
  },
  storedOrder,
};
