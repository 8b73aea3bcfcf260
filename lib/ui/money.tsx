import { formatMoney } from "@/lib/shop/money";

export function Money({ cents, currency }: { cents: number; currency: string }) {
  return <span className="money">{formatMoney(cents, currency)}</span>;
}
