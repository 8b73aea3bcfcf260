// What the shopper reads, and where: every amount the payment modal shows is computed here from
// the merchant's cart (purchase_data) and the trade-in, never copied from the SDK's own output
// (Contract, What the service does (4): all money in integer cents; the discount is the trade-in
// value up to the cart total, the rest is left to pay), formatted with Intl in the page's locale
// and the cart's currency; and every teaser shows its own type's words (Contract, Front-end SDK ›
// Teasers: banner, product-widget, cart-summary, thank-you), or the offer once there is one.
import { type Cart, expect, type Shop, test } from "./fixtures";

const SMALL = "Test phone: offer of 10.00 (test)";

/** Two lines, one of them two units: total = price × quantity + tax per line (the cart's rule). */
function twoLineCart(shop: Shop): Cart {
  const lines = [
    { id: "sku-case", name: "Leather case", price: 12_345, quantity: 2, tax: 5_185 },
    { id: "sku-book", name: "Vertex Book 16", price: 50_000, quantity: 1, tax: 10_500 },
  ].map((line) => ({
    ...line,
    description: "",
    url: `/${line.id}`,
    total: line.price * line.quantity + line.tax,
  }));
  const price = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const tax = lines.reduce((sum, l) => sum + l.tax, 0);
  return { id: `cart-${shop.key}`, currency: "EUR", items: lines, price, tax, total: price + tax };
}

for (const { lang, dialog } of [
  { lang: "en", dialog: "Pay with Service" },
  { lang: "es", dialog: "Pagar con Service" },
]) {
  test(`the payment modal's amounts by formula from the cart and the trade-in (${lang})`, async ({
    shop,
    page,
  }) => {
    const cart = twoLineCart(shop);
    await shop.setState({ cart });
    // The valuation in English (the wizard's words), the payment in the page's language.
    await shop.open();
    await shop.valuate("Test devices", SMALL);
    if (lang !== "en") await shop.open(`lang=${lang}`);
    const tradeIn = 1000;
    await page.evaluate(() =>
      (window as unknown as { Service: { openPayment(): Promise<void> } }).Service.openPayment(),
    );
    const modal = page.getByRole("dialog", { name: dialog });
    const money = (cents: number) =>
      new Intl.NumberFormat(lang, { style: "currency", currency: cart.currency }).format(
        cents / 100,
      );
    await expect(modal.locator("tbody tr")).toHaveCount(cart.items.length);
    const rows = await modal
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim())),
      );
    expect(rows).toEqual(
      cart.items.map((item) => [item.name, String(item.quantity), money(item.total)]),
    );
    // Figures line up at the end of their column, as on any bill: each quantity and amount cell.
    const alignments = await modal
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.flatMap((tr) =>
          [...tr.querySelectorAll("td")].slice(1).map((td) => getComputedStyle(td).textAlign),
        ),
      );
    expect(alignments).toEqual(cart.items.flatMap(() => ["end", "end"]));
    const discount = Math.min(tradeIn, cart.total);
    await expect(modal.locator("[data-amount=cart-total]")).toHaveText(money(cart.total));
    await expect(modal.locator("[data-amount=trade-in-discount]")).toHaveText(
      `−${money(discount)}`,
    );
    await expect(modal.locator("[data-amount=left-to-pay]")).toHaveText(
      money(cart.total - discount),
    );
  });
}

/** The SDK's words per teaser type (emulator/sdk/format.ts, English). */
const TEASER_WORDS = {
  banner: "Trade in your old device and save on your order.",
  "product-widget": "Pay less for this product with your old device.",
  "cart-summary": "Trade in a device to lower this total.",
  "thank-you": "Have another device at home? Trade it in on your next order.",
} as const;
type TeaserType = keyof typeof TEASER_WORDS;

async function expectOwnWords(shop: Shop, type: TeaserType) {
  const teasers = await shop.teasers(type).all();
  expect(teasers.length).toBeGreaterThan(0);
  for (const teaser of teasers) {
    await expect(teaser).toHaveAttribute("data-state", "cta");
    await expect(teaser).toContainText(TEASER_WORDS[type]);
    for (const [other, words] of Object.entries(TEASER_WORDS)) {
      if (other !== type) await expect(teaser).not.toContainText(words);
    }
  }
}

test("each teaser type shows its own words and no other type's, on the checkout and the confirmation page; with a trade-in, the offer and none of them", async ({
  shop,
  page,
}) => {
  await shop.open();
  for (const type of ["banner", "product-widget", "cart-summary"] as const) {
    await expectOwnWords(shop, type);
  }
  await page.goto(`${shop.base}/confirmation`);
  await shop.ready();
  await expectOwnWords(shop, "thank-you");
  await shop.valuate("Test devices", SMALL);
  for (const page of [`${shop.base}/confirmation`, `${shop.base}/`]) {
    await shop.page.goto(page);
    await shop.ready();
    for (const teaser of await shop.teasers().all()) {
      await expect(teaser).toHaveAttribute("data-state", "offer");
      await expect(teaser).toContainText("Test phone: offer of 10.00: €10.00 off");
      for (const words of Object.values(TEASER_WORDS)) {
        await expect(teaser).not.toContainText(words);
      }
    }
  }
});
