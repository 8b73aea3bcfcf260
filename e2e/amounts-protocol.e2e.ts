// One amount, over HTTP only (no browser page): for random carts, quantities, delivery methods,
// currencies, promotion codes and trade-in values, the shop's purchase_data → the service's charge → the signed
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

/**
 * The seeded promotion codes (prisma/catalog-data.ts), restated here as a shopper reads them, so
 * the discount is computed beside the shop, not by it (docs/decisions/discounts.md).
 */
const CODES = {
  SAVE10: { percent: 10 },
  TENOFF: { amount: 1_000, currency: "EUR" },
  BIG50: { amount: 5_000, currency: "EUR", minimum: 50_000 },
  SUMMER24: { expired: true },
} as const;
type Code = keyof typeof CODES;

/** What the codes take off items worth `items` (price and VAT) in `currency`, in typed order. */
function discountOf(codes: readonly Code[], items: number, currency: Currency): number {
  let off = 0;
  for (const name of codes) {
    const code: {
      percent?: number;
      amount?: number;
      currency?: string;
      minimum?: number;
      expired?: boolean;
    } = CODES[name];
    if (code.expired || (code.currency && code.currency !== currency)) continue;
    if (code.minimum !== undefined && items < code.minimum) continue;
    const each = code.percent ? Math.floor((items * code.percent) / 100) : (code.amount ?? 0);
    if (off + each <= items) off += each;
  }
  return off;
}

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
  // Promotion codes typed in the cart, any subset in any order (the expired one refused).
  codes: fc.shuffledSubarray(Object.keys(CODES) as Code[]),
  // Now and then a trade-in valued in the other currency (template `currency`).
  tradeInInOtherCurrency: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
});

test("for any cart, delivery, currency, promotion codes and trade-in, the service collects exactly what the shop records as paid, or nothing @emulator", async ({
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
          promotionCodes: c.codes,
        });
        const cartId = checkout.cartId;
        // purchase_data: the Cart the service is shown, computed here from the list prices
        // and the codes' rules.
        const items = c.lines.reduce(
          (sum, l) => sum + (prices.get(l.slug)?.[c.currency] ?? NaN) * l.quantity,
          0,
        );
        const discount = discountOf(c.codes, items, c.currency);
        const owed = items - discount + DELIVERY[c.delivery][c.currency];
        const sent = checkout.purchase.cart;
        expect(sent).toMatchObject({ id: cartId, currency: c.currency, total: owed });
        // Contract, Cart: total = price + tax − sum(discounts.total).
        const sentOff = (sent.discounts ?? []).reduce((sum, d) => sum + d.total, 0);
        expect(sentOff).toBe(discount);
        expect(sent.total).toBe(sent.price + sent.tax - sentOff);

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
          discountTotal: discount,
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
            codes: [],
          },
        ],
        [
          {
            currency: "EUR",
            delivery: "standard",
            lines: [{ slug: "echo-buds-pro", quantity: 1 }],
            tradeIn: 1_000,
            tradeInInOtherCurrency: false,
            codes: [],
          },
        ],
        [
          {
            currency: "GBP",
            delivery: "express",
            lines: [{ slug: "aurora-x1", quantity: 1 }],
            tradeIn: 30_000,
            tradeInInOtherCurrency: true,
            codes: ["TENOFF"],
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
            codes: ["SAVE10", "SUMMER24"],
          },
        ],
        [
          {
            currency: "EUR",
            delivery: "express",
            lines: [{ slug: "aurora-x1-mini", quantity: 1 }],
            tradeIn: 60_000,
            tradeInInOtherCurrency: false,
            codes: ["BIG50", "SAVE10"],
          },
        ],
      ],
    },
  );
  expect(outcomes.paid, "some payments were taken").toBeGreaterThan(0);
  expect(outcomes.refused, "some payments were refused").toBeGreaterThan(0);
});
