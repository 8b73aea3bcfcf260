// One amount, over HTTP only (no browser page): for random carts, quantities, delivery methods,
// currencies and trade-in values, the shop's purchase_data → the service's charge → the signed
// webhook → the order the shop stores. Whenever the service takes a payment, what it collected
// (`amount − trade_in_discount`) is the order's total in the shop's database, and the Cart's
// total is what the catalogue and the delivery price say, computed here from the shop's own
// list prices; whenever it refuses (a trade-in larger than the cart, a cart under a minimum, two
// currencies), the shop has no paid order. The shopper's steps are the shop's own forms, posted
// as a browser without JavaScript posts them (progressive enhancement), and the SDK's calls are
// the ones the SDK makes (emulator/README.md, Browser SDK).
import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import Database from "better-sqlite3";
import fc from "fast-check";
import { TEST_ADDRESS as ADDRESS } from "../test-support/checkout";
import { EMULATOR_URL, emulator as emulatorClient } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import { postPageForm } from "./support/no-js-form";
import { storedOrderOfCart } from "./support/shop-db";
import { SESSION_COOKIE, signedInShopSession } from "./support/shop-session";
import { STACK } from "./support/stack";

const MERCHANT = "m_demo";
/** The seed merchant's minimums (emulator/README.md): below them the service refuses the pay. */
const MINIMUM = { tradein: 5_000, ep1: 20_000 };
/** The shop's delivery prices (lib/shop/shipping.ts), as the checkout page shows them. */
const DELIVERY = {
  standard: { EUR: 499, GBP: 449 },
  express: { EUR: 1_499, GBP: 1_299 },
} as const;

type Currency = "EUR" | "GBP";

/** The catalogue's list prices (price + tax per unit) by slug, from the shop's database. */
function listPrices(): Map<string, Record<Currency, number>> {
  const db = new Database(STACK.databaseFile, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT p.slug, pp.currency, pp.price + pp.tax AS list FROM Product p
         JOIN ProductPrice pp ON pp.productId = p.id`,
      )
      .all() as { slug: string; currency: Currency; list: number }[];
    const prices = new Map<string, Record<Currency, number>>();
    for (const row of rows) {
      prices.set(row.slug, {
        ...(prices.get(row.slug) ?? { EUR: 0, GBP: 0 }),
        [row.currency]: row.list,
      });
    }
    return prices;
  } finally {
    db.close();
  }
}

/** One of the page's forms, posted as without JavaScript; the shop answers a page. */
async function submitForm(
  shop: APIRequestContext,
  path: string,
  formClass: string,
  fields: Record<string, string>,
): Promise<void> {
  const answer = await postPageForm(shop, path, `class="${formClass}"`, fields);
  expect(answer.status, `${formClass} on ${path}`).toBeLessThan(400);
}

const sdkCall = async (path: string, body: unknown) => {
  const response = await fetch(`${EMULATOR_URL}/sdk/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STACK.shopUrl },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const cartCase = fc.record({
  currency: fc.constantFrom<Currency>("EUR", "GBP"),
  delivery: fc.constantFrom<"standard" | "express">("standard", "express"),
  lines: fc.uniqueArray(
    fc.record({
      slug: fc.constantFrom("aurora-x1", "aurora-x1-mini", "echo-buds-pro", "pulse-speaker-go"),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 3, selector: (line) => line.slug },
  ),
  tradeIn: fc.integer({ min: 1_000, max: 400_000 }),
  // Now and then a trade-in valued in the other currency (template `currency`).
  tradeInInOtherCurrency: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
});

test("for any cart, delivery, currency and trade-in, the service collects exactly what the shop records as paid, or nothing @emulator", async ({
  emulator,
}) => {
  // Eleven cases of a whole purchase each (about 1 s apiece here): the property's own budget,
  // three times what it takes on this machine.
  test.setTimeout(45_000);
  const prices = listPrices();
  const outcomes = { paid: 0, refused: 0 };
  await fc.assert(
    fc.asyncProperty(cartCase, async (c) => {
      const shop = await playwrightRequest.newContext({
        baseURL: STACK.shopUrl,
        storageState: {
          cookies: [
            {
              name: SESSION_COOKIE,
              value: await signedInShopSession("shopper@example.com"),
              domain: "localhost",
              path: "/",
              expires: -1,
              httpOnly: true,
              secure: false,
              sameSite: "Lax",
            },
          ],
          origins: [],
        },
      });
      try {
        if (c.currency === "GBP")
          await submitForm(shop, "/", "currency-switcher", { currency: "GBP" });
        for (const line of c.lines) {
          await submitForm(shop, `/products/${line.slug}`, "add-to-cart", {
            quantity: String(line.quantity),
          });
        }
        const shopper = await (await shop.get("/api/service/shopper_data")).json();
        const hash = shopper.session_hash_token as string;
        const tradeInCurrency = c.tradeInInOtherCurrency
          ? c.currency === "EUR"
            ? "GBP"
            : "EUR"
          : c.currency;
        await emulator.createTradeIn({
          session_hash: hash,
          value: c.tradeIn,
          currency: tradeInCurrency,
        });
        // The SDK's start-up binds the session; the checkout keeps the details before the window.
        expect(
          (
            await sdkCall("/init", {
              merchant_id: MERCHANT,
              session_hash: hash,
              customer: shopper.customer,
            })
          ).status,
        ).toBe(200);
        const details = {
          email: "shopper@example.com",
          billing: ADDRESS,
          shipping_method: c.delivery,
        };
        const kept = await shop.post("/api/service/checkout", { data: details });
        expect(kept.status()).toBe(200);
        const { cart_id: cartId } = await kept.json();

        // purchase_data: the Cart the service is shown, computed here from the list prices.
        const { purchase } = await (await shop.get("/api/service/purchase_data")).json();
        const owed =
          c.lines.reduce(
            (sum, l) => sum + (prices.get(l.slug)?.[c.currency] ?? NaN) * l.quantity,
            0,
          ) + DELIVERY[c.delivery][c.currency];
        expect(purchase.cart).toMatchObject({ id: cartId, currency: c.currency, total: owed });

        const started = await sdkCall("/payments", {
          merchant_id: MERCHANT,
          session_hash: hash,
          method: "card",
          purchase,
        });
        const usable =
          tradeInCurrency === c.currency &&
          owed >= Math.max(MINIMUM.tradein, c.tradeIn) &&
          owed >= MINIMUM.ep1;
        if (!usable) {
          // Refused by the service: nothing is paid, and the shop marks nothing paid.
          expect(started.status, JSON.stringify(started.body)).toBe(409);
          expect(storedOrderOfCart(cartId)?.status ?? "none").not.toBe("payment_completed");
          outcomes.refused += 1;
          return;
        }
        expect(started.status, JSON.stringify(started.body)).toBe(201);
        const orderId = started.body.order_id as string;
        // ready-to-place-order: the shop's pending order, then the payment completes.
        const pending = await shop.post("/api/service/pending-order", {
          data: { cart_id: cartId, ...details },
        });
        expect(pending.status()).toBe(200);
        const completed = await sdkCall(`/payments/${orderId}/complete`, {
          merchant_id: MERCHANT,
          session_hash: hash,
        });
        expect(completed.status).toBe(200);
        await emulatorClient.deliveredWebhookFor(cartId);

        const [charged] = (await emulator.orders()).filter((o) => o.cart_id === cartId);
        const collected = (charged?.amount ?? NaN) - (charged?.trade_in_discount ?? NaN);
        expect(charged?.amount).toBe(owed);
        expect(storedOrderOfCart(cartId)).toMatchObject({
          status: "payment_completed",
          currency: c.currency,
          total: collected,
          tradeInDiscount: Math.min(c.tradeIn, owed),
          serviceOrderId: orderId,
        });
        outcomes.paid += 1;
      } finally {
        await shop.dispose();
      }
    }),
    {
      numRuns: 6,
      // The edges, always: a trade-in larger than the cart, a cart under Service Pay's minimum
      // (other_ok), another currency, and express delivery in GBP with several lines.
      examples: [
        [
          {
            currency: "EUR",
            delivery: "standard",
            lines: [{ slug: "pulse-speaker-go", quantity: 1 }],
            tradeIn: 15_000,
            tradeInInOtherCurrency: false,
          },
        ],
        [
          {
            currency: "EUR",
            delivery: "standard",
            lines: [{ slug: "echo-buds-pro", quantity: 1 }],
            tradeIn: 1_000,
            tradeInInOtherCurrency: false,
          },
        ],
        [
          {
            currency: "GBP",
            delivery: "express",
            lines: [{ slug: "aurora-x1", quantity: 1 }],
            tradeIn: 30_000,
            tradeInInOtherCurrency: true,
          },
        ],
        [
          {
            currency: "GBP",
            delivery: "express",
            lines: [
              { slug: "aurora-x1", quantity: 2 },
              { slug: "echo-buds-pro", quantity: 3 },
            ],
            tradeIn: 42_000,
            tradeInInOtherCurrency: false,
          },
        ],
        [
          {
            currency: "EUR",
            delivery: "express",
            lines: [{ slug: "aurora-x1-mini", quantity: 1 }],
            tradeIn: 60_000,
            tradeInInOtherCurrency: false,
          },
        ],
      ],
    },
  );
  expect(outcomes.paid, "some payments were taken").toBeGreaterThan(0);
  expect(outcomes.refused, "some payments were refused").toBeGreaterThan(0);
});
