// The service object the page stores as `window.Service` (contract: Front-end SDK, methods).
import { fetchShopperData, serviceApi } from "./api";
import { hasProduct, readConfiguration } from "./config";
import { emit } from "./events";
import { pageLocale } from "./format";
import { observer } from "./observe";
import { loadPaymentOption, PaymentModal, type ReadyToPlaceOrderListener } from "./payment";
import { activeTradeIn, type SdkState } from "./state";
import { Teasers } from "./teasers";
import type { InitRequest, InitResponse, PaymentOptionDetails, TradeInView } from "./wire";
import { Wizard } from "./wizard";

export type Service = {
  /** Resolves once start-up finished and `service-ready` was dispatched. */
  ready: Promise<void>;
  openValuation(): Promise<void>;
  openPayment(): Promise<void>;
  updatePaymentSelected(selected: boolean): void;
  paymentOptionDetailsFor(product: string): Promise<PaymentOptionDetails>;
  addReadyToPlaceOrderListener(callback: ReadyToPlaceOrderListener): () => void;
  hasActiveTradeIn(): boolean;
};

export function createService(moduleUrl: string): Service {
  const config = readConfiguration();
  const api = serviceApi(moduleUrl);
  const state: SdkState = {
    config,
    locale: pageLocale(),
    api,
    observe: observer(api, config.merchantId),
    shopper: null,
    sessionId: null,
    tradein: null,
    merchantCurrency: "EUR",
    clockSkew: 0,
  };
  let selected = false;
  let lastDetails: PaymentOptionDetails | null = null;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;

  const teasers = new Teasers({
    locale: state.locale,
    selectors: config.selectors,
    activeTradeIn: () => activeTradeIn(state),
    openValuation: () => void wizard.open(),
  });

  // Teasers fall back to the call to action once the valuation passes valid_until.
  const setTradeIn = (tradein: TradeInView | null) => {
    state.tradein = tradein;
    clearTimeout(expiryTimer);
    if (tradein) {
      const due = Date.parse(tradein.valid_until) - (Date.now() + state.clockSkew);
      if (due > 0 && due < 2 ** 31 - 1) expiryTimer = setTimeout(() => teasers.renderAll(), due);
    }
    teasers.renderAll();
  };

  const wizard = new Wizard(state, (tradein) => {
    setTradeIn(tradein);
    lastDetails = null;
    emit("service-valuation-updated", {
      message: "Valuation updated",
      tradein_id: tradein.id,
      value: tradein.value,
      currency: tradein.currency,
      valid_until: tradein.valid_until,
    });
  });
  const payment = new PaymentModal(state);

  const ready = (async () => {
    try {
      state.shopper = await fetchShopperData(config.browserCallbackBase, state.observe);
      const init = await state.api<InitResponse>("/init", {
        merchant_id: config.merchantId,
        session_hash: state.shopper?.session_hash_token ?? null,
        customer: state.shopper?.customer ?? null,
      } satisfies InitRequest);
      state.clockSkew = Date.parse(init.now) - Date.now();
      state.sessionId = init.session_id;
      state.merchantCurrency = init.merchant_currency;
      setTradeIn(init.tradein);
    } catch (error) {
      // The shop must keep working when the service is down: teasers still render.
      console.warn("[service] start-up failed; continuing without a session", error);
    }
    teasers.start();
    emit("service-ready");
  })();

  return {
    ready,
    async openValuation() {
      await ready;
      await wizard.open();
    },
    async openPayment() {
      await ready;
      await payment.open();
    },
    updatePaymentSelected(value: boolean) {
      if (value === selected) return;
      selected = value;
      if (!value) {
        emit("servicepay-payment-method-unselected");
        return;
      }
      const tradein = activeTradeIn(state);
      emit("servicepay-payment-method-selected", {
        message: "Service Pay selected",
        mode: lastDetails?.mode ?? (tradein ? "tradein_valid" : "tradein_missing"),
        tradein_id: tradein?.id ?? null,
      });
      // Contract, Payment option mode: selecting the option without a valuation opens the wizard.
      if (!tradein && hasProduct(config.products, "ep1")) void this.openValuation();
    },
    async paymentOptionDetailsFor(product: string) {
      await ready;
      const products = product === "ep1" ? config.products : "";
      const { details } = await loadPaymentOption(state, products);
      if (product === "ep1") {
        lastDetails = details;
        state.observe.markup(details);
      }
      return details;
    },
    addReadyToPlaceOrderListener(callback: ReadyToPlaceOrderListener) {
      return payment.addListener(callback);
    },
    hasActiveTradeIn() {
      return activeTradeIn(state) !== null;
    },
  };
}
