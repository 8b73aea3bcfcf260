// What the SDK knows after start-up; shared by the service object, the wizard and the payment modal.
import type { ServiceApi } from "./api";
import type { ServiceConfiguration } from "./config";
import type { Locale } from "./format";
import type { Observer } from "./observe";
import type { ShopperData, TradeInView } from "./wire";

export type SdkState = {
  config: ServiceConfiguration;
  locale: Locale;
  api: ServiceApi;
  /** Reports the merchant's callbacks and payment option markup (go-live readiness). */
  observe: Observer;
  /** null for an anonymous shopper (shopper_data answered 404). */
  shopper: ShopperData | null;
  sessionId: string | null;
  tradein: TradeInView | null;
  /** Service clock minus browser clock, in ms: `valid_until` is judged on the service's time. */
  clockSkew: number;
  /** The shopper valued a device before: a new valuation is not a new user's. */
  earlierValuation: boolean;
};

export function activeTradeIn(state: SdkState): TradeInView | null {
  const tradein = state.tradein;
  if (tradein?.status !== "accepted") return null;
  // Contract, Valuation validity: expired when now is after valid_until (not at it).
  return Date.parse(tradein.valid_until) >= Date.now() + state.clockSkew ? tradein : null;
}
