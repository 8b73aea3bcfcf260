// One amount, over HTTP only (no browser page): for random carts, quantities, delivery methods,
// currencies and trade-in values, the shop's purchase_data → the service's charge → the signed
// webhook → the order the shop stores. Whenever the service takes a payment, what it collected
// (`amount − trade_in_discount`) is the order's total in the shop's database, and the Cart's
// total is what the catalogue and the delivery price say, computed here from the shop's own
// list prices; whenever it refuses (a trade-in larger than the cart, a cart under a minimum, two
// currencies), the shop has no paid order. The shopper's steps are the shop's own forms, posted
// as a browser without JavaScript posts them (progressive enhancement), and the SDK's calls are
// the ones the SDK makes (emulator/README.md, Browser SDK).
import Database from "better-sqlite3";
import fc from "fast-check";
import { emulator as emulatorClient } from "./support/emulator";
import { expect, test } from "./support/fixtures";
import {
  type Currency,
  checkoutOverHttp,
  completeServicePay,
  signedInShopper,
  startServicePay,
} from "./support/http-purchase";
import { storedOrderOfCart } from "./support/shop-db";
import { STACK } from "./support/stack";

/** The seed merchant's minimums (emulator/README.md): below them the service refuses the pay. */
const MINIMUM = { tradein: 5_000, ep1: 20_000 };
/** The shop's delivery prices (lib/shop/shipping.ts), as the checkout page shows them. */
const DELIVERY = {
  standard: { EUR: 499, GBP: 449 },
  express: { EUR: 1_499, GBP: 1_299 },
} as const;

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
      const shop = await signedInShopper("shopper@example.com");
      try {
        const tradeInCurrency = c.tradeInInOtherCurrency
          ? c.currency === "EUR"
            ? "GBP"
            : "EUR"
          : c.currency;
        const checkout = await checkoutOverHttp(shop, "shopper@example.com", {
          currency: c.currency,
          delivery: c.delivery,
          lines: c.lines,
          tradeIn: { value: c.tradeIn, currency: tradeInCurrency },
        });
        const cartId = checkout.cartId;
        // purchase_data: the Cart the service is shown, computed here from the list prices.
        const owed =
          c.lines.reduce(
            (sum, l) => sum + (prices.get(l.slug)?.[c.currency] ?? NaN) * l.quantity,
            0,
          ) + DELIVERY[c.delivery][c.currency];
        expect(checkout.purchase.cart).toMatchObject({
          id: cartId,
          currency: c.currency,
          total: owed,
        });

        const started = await startServicePay(checkout);
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
        await completeServicePay(shop, checkout, orderId);
        await emulatorClient.deliveredWebhookFor(cartId);
        // The webhook's 200 means stored; the apply follows it (store-then-apply).
        await expect.poll(() => storedOrderOfCart(cartId)?.status).toBe("payment_completed");

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
