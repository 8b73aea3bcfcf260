import { setCurrencyAction } from "@/lib/shop/actions/cart-actions";
import { CURRENCIES, type Currency } from "@/lib/shop/money";

const LABELS: Record<Currency, string> = { EUR: "€ EUR", GBP: "£ GBP" };

/** Plain buttons in a form: works without JavaScript; the action returns to the Referer page. */
export function CurrencySwitcher({ current }: { current: Currency }) {
  return (
    <form action={setCurrencyAction} className="currency-switcher" aria-label="Currency">
      {CURRENCIES.map((currency) => (
        <button
          key={currency}
          type="submit"
          name="currency"
          value={currency}
          aria-pressed={currency === current}
          className="currency-switcher__option"
        >
          {LABELS[currency]}
        </button>
      ))}
    </form>
  );
}
