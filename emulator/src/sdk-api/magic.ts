// Magic test devices: like a payment provider's test card numbers, choosing one of these models
// in the valuation wizard forces an outcome, whatever the condition answers. The wizard marks
// them "test" and emulator/README.md ("Browser SDK") lists them.
import type { Cents, Currency, Millis } from "../domain";

export const MAGIC_CATEGORY = { id: "test", name: "Test devices" } as const;

export type MagicModel = {
  id: string;
  name: string;
  /** What the model forces, shown to developers in the catalog answer. */
  test: string;
  value: Cents;
  /** The offer's currency given the merchant's. */
  currency: (merchantCurrency: Currency) => Currency;
  /** valid_until from the clock's now; undefined = the normal lifetime. */
  validFor?: Millis;
};

const same = (c: Currency) => c;

export const MAGIC_MODELS: readonly MagicModel[] = [
  {
    id: "test-other-currency",
    name: "Test phone: offer in another currency",
    test: "Offer of 250.00 in GBP (EUR for a GBP merchant): template currency",
    value: 25_000,
    currency: (c) => (c === "GBP" ? "EUR" : "GBP"),
  },
  {
    id: "test-large-offer",
    name: "Test phone: offer of 2,000.00",
    test: "Offer of 2,000.00 in the merchant's currency: larger than most carts, template cart_below_limit",
    value: 200_000,
    currency: same,
  },
  {
    id: "test-expires-soon",
    name: "Test phone: offer that expires in a minute",
    test: "Offer of 150.00 whose valid_until is the emulator clock's now + 60 s",
    value: 15_000,
    currency: same,
    validFor: 60_000,
  },
  {
    id: "test-small-offer",
    name: "Test phone: offer of 10.00",
    test: "Offer of 10.00 in the merchant's currency: valid on almost any cart",
    value: 1_000,
    currency: same,
  },
];

export function findMagicModel(id: string): MagicModel | undefined {
  return MAGIC_MODELS.find((m) => m.id === id);
}
