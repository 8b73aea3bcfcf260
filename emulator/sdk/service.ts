// The service object the page stores as `window.Service` (contract: Front-end SDK, methods).
import { fetchShopperData, serviceApi } from "./api";
import { hasProduct, readConfiguration } from "./config";
import { emit } from "./events";
import { pageLocale } from "./format";
import { observer } from "./observe";
import { loadPaymentOption, PaymentModal, type ReadyToPlaceOrderListener } from "./payment";
import { findPaymentOption, MODULE_NAME } from "./payment-option";
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
    clockSkew: 0,
    earlierValuation: false,
  };
  let selected = false;
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
      state.earlierValuation = init.earlier_valuation;
      setTradeIn(init.tradein);
    } catch (error) {
      // The shop must keep working when the service is down: teasers still render.
      console.warn("[service] start-up failed; continuing without a session", error);
    }
    teasers.start();
    emit("service-ready");
  })();

  // Every method is a closure over this start-up's state, never `this`: a page may call them
  // detached (`const f = Service.updatePaymentSelected; f(true)`).
  const openValuation = async () => {
    await ready;
    await wizard.open();
  };

  const paymentOptionDetailsFor = async (product: string) => {
    await ready;
    const products = product === "ep1" ? config.products : "";
    const { details } = await loadPaymentOption(state, products);
    if (product === "ep1") state.observe.markup(details);
    return details;
  };

  /** Contract, Events: the selected event carries "payload from the modal": the payment
   *  option's details as the service computes them for the cart now. Selection events are
   *  dispatched in the order of the calls, so a quick select-unselect still pairs up. */
  let announcements: Promise<void> = Promise.resolve();
  const announce = (selectedNow: boolean) => {
    announcements = announcements.then(async () => {
      if (!selectedNow) {
        emit("servicepay-payment-method-unselected");
        return;
      }
      const details = await paymentOptionDetailsFor("ep1").catch(() => null);
      const tradein = activeTradeIn(state);
      emit("servicepay-payment-method-selected", {
        message: "Service Pay selected",
        module_name: MODULE_NAME,
        tradein_id: tradein?.id ?? null,
        ...(details ?? { mode: tradein ? "tradein_valid" : "tradein_missing" }),
      });
    });
  };

  return {
    ready,
    openValuation,
    async openPayment() {
      await ready;
      await payment.open();
    },
    updatePaymentSelected(value: boolean) {
      if (value === selected) return;
      // Only the recognised option counts (data-module-name, contract: Payment option markup).
      if (value && !findPaymentOption()) return;
      selected = value;
      announce(value);
      if (!value) return;
      // Contract, Payment option mode: selecting the option without a valuation opens the wizard.
      if (!activeTradeIn(state) && hasProduct(config.products, "ep1")) void openValuation();
    },
    paymentOptionDetailsFor,
    addReadyToPlaceOrderListener(callback: ReadyToPlaceOrderListener) {
      return payment.addListener(callback);
    },
    hasActiveTradeIn() {
      return activeTradeIn(state) !== null;
    },
  };
}
