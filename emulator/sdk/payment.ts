// The Service Pay modal (contract: Front-end SDK `openPayment()`). Order of effects on "Pay now":
// the order is started server-side (status pending, so it has an order id), every
// ready-to-place-order listener is awaited, `service-ready-to-place-order` fires, the payment is
// completed server-side (status payment_completed, webhook scheduled), `service-payment-completed`
// fires and the browser goes to confirmUrl.
import { fetchPurchaseData, HttpError } from "./api";
import { el, Modal, simpleHtml } from "./dialog";
import { emit } from "./events";
import { failureMessage, money, t } from "./format";
import type { SdkState } from "./state";
import type {
  CompletePaymentRequest,
  CompletePaymentResponse,
  PayMethod,
  PaymentOptionDetails,
  PaymentOptionRequest,
  PaymentOptionResponse,
  PurchaseData,
  ShopperData,
  StartPaymentRequest,
  StartPaymentResponse,
} from "./wire";

export type ReadyToPlaceOrder = { message: string; cart_id: string; order_id: string };
export type ReadyToPlaceOrderListener = (payload: ReadyToPlaceOrder) => unknown;

/** A listener that never settles must not hold the shopper's payment hostage. */
const LISTENER_TIMEOUT_MS = 10_000;

/**
 * Fetches purchase_data fresh and asks the service for the payment option details. The service
 * compares the cart with the one the session saw last and moves the session to its next version
 * when it changed, which fires `service-purchase-updated` (contract: Session version).
 */
export async function loadPaymentOption(
  state: SdkState,
  products: string,
  purpose: "details" | "payment" = "details",
): Promise<{ details: PaymentOptionDetails; purchase: PurchaseData["purchase"] }> {
  let purchase: PurchaseData["purchase"] = null;
  if (state.shopper)
    purchase = (await fetchPurchaseData(state.config.browserCallbackBase, state.observe)).purchase;
  const response = await state.api<PaymentOptionResponse>("/payment-option", {
    purpose,
    merchant_id: state.config.merchantId,
    session_hash: state.shopper?.session_hash_token ?? null,
    products,
    locale: state.locale,
    purchase,
  } satisfies PaymentOptionRequest);
  if (response.session) {
    state.sessionId = response.session.session_id;
    if (response.session.updated) {
      emit("service-purchase-updated", {
        message: response.session.note,
        session_id: response.session.session_id,
      });
    }
  }
  return { details: response.details, purchase };
}

/**
 * The service refused the merchant's purchase_data (400: a cart that does not add up, a missing
 * address…). The shopper is told plainly; the developer finds the service's reason in the
 * console here and in the service's journal.
 */
function rejectedPurchase(error: unknown): boolean {
  if (!(error instanceof HttpError) || error.status !== 400) return false;
  console.warn(`[service] purchase_data refused: ${error.body.error_description ?? error.message}`);
  return true;
}

export class PaymentModal {
  private readonly modal: Modal;
  private readonly listeners: ReadyToPlaceOrderListener[] = [];

  constructor(private readonly state: SdkState) {
    this.modal = new Modal(
      "service-payment",
      () => emit("service-modal-closed", { message: "Payment modal closed", modal: "payment" }),
      t(state.locale, "close"),
    );
  }

  addListener(listener: ReadyToPlaceOrderListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  async open(): Promise<void> {
    const { locale } = this.state;
    if (!this.modal.open(t(locale, "payTitle"))) return;
    // A logged-out shopper cannot pay: the window says so, and only a shopper's window goes on to
    // the summary and its Pay now, which carry that shopper's session hash.
    const shopper = this.state.shopper;
    if (!shopper) {
      this.showMessage(t(locale, "loginTitle"), t(locale, "loginText"));
      return;
    }
    try {
      const { details, purchase } = await loadPaymentOption(
        this.state,
        this.state.config.products,
        "payment",
      );
      if (!purchase) this.showMessage(t(locale, "emptyCart"));
      else if (details.mode !== "tradein_valid")
        this.showMessage(t(locale, "cannotPay"), details.info);
      else this.showSummary(purchase, shopper);
    } catch (error) {
      if (rejectedPurchase(error))
        this.showMessage(t(locale, "cannotPay"), t(locale, "purchaseRejected"));
      else this.showMessage(failureMessage(locale, error));
    }
  }

  private closeButton(): HTMLButtonElement {
    const close = el("button", { type: "button", class: "primary" }, t(this.state.locale, "close"));
    close.addEventListener("click", () => this.modal.close());
    return close;
  }

  private showMessage(title: string, info?: string): void {
    const text = el("p", {}, info ? simpleHtml(info) : "");
    this.modal.body.replaceChildren(
      el("h3", { role: "alert" }, title),
      text,
      el("div", { class: "actions" }, this.closeButton()),
    );
    this.modal.focusFirst(".actions button");
  }

  private showSummary(purchase: NonNullable<PurchaseData["purchase"]>, shopper: ShopperData): void {
    const { locale } = this.state;
    const { cart } = purchase;
    const tradein = this.state.tradein;
    const discount = tradein ? Math.min(tradein.value, cart.total) : 0;
    const format = (cents: number) => money(cents, cart.currency, locale);
    const rows = cart.items.map((item) =>
      el(
        "tr",
        {},
        el("td", {}, item.name),
        el("td", { class: "num" }, String(item.quantity)),
        el("td", { class: "num" }, format(item.total)),
      ),
    );
    const table = el(
      "table",
      { "aria-label": t(locale, "items") },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, t(locale, "items")),
          el("th", { scope: "col", class: "num" }, t(locale, "quantity")),
          el("th", { scope: "col", class: "num" }, "Total"),
        ),
      ),
      el("tbody", {}, ...rows),
    );
    const totals = el(
      "dl",
      {},
      el("dt", {}, t(locale, "subtotal")),
      el("dd", { "data-amount": "cart-total" }, format(cart.total)),
      el("dt", {}, `${t(locale, "discount")}${tradein ? ` (${tradein.device})` : ""}`),
      el("dd", { "data-amount": "trade-in-discount" }, `−${format(discount)}`),
      el("dt", { class: "total" }, t(locale, "left")),
      el("dd", { class: "total", "data-amount": "left-to-pay" }, format(cart.total - discount)),
    );
    const methods: [PayMethod, string][] = [
      ["card", t(locale, "card")],
      ["bank_transfer", t(locale, "bank")],
    ];
    const choice = el("fieldset", {}, el("legend", {}, t(locale, "howToPay")));
    for (const [value, label] of methods) {
      const input = el("input", { type: "radio", name: "service-pay-method", value });
      if (value === "card") input.checked = true;
      choice.append(el("label", {}, input, label));
    }
    const status = el("p", { role: "status" });
    const pay = el("button", { type: "button", class: "primary" }, t(locale, "payNow"));
    pay.addEventListener("click", async () => {
      const method = (choice.querySelector<HTMLInputElement>("input:checked")?.value ??
        "card") as PayMethod;
      pay.disabled = true;
      status.textContent = t(locale, "paying");
      try {
        await this.pay(method, purchase, shopper);
        status.textContent = t(locale, "paid");
        window.location.assign(this.state.config.confirmUrl);
      } catch (error) {
        if (rejectedPurchase(error)) {
          this.showMessage(t(locale, "cannotPay"), t(locale, "purchaseRejected"));
          return;
        }
        status.textContent = "";
        status.append(el("span", { class: "error" }, failureMessage(locale, error)));
        pay.disabled = false;
      }
    });
    this.modal.body.replaceChildren(
      table,
      totals,
      choice,
      status,
      el("div", { class: "actions" }, pay),
    );
    this.modal.focusFirst("input:checked");
  }

  private async pay(
    method: PayMethod,
    purchase: NonNullable<PurchaseData["purchase"]>,
    shopper: ShopperData,
  ): Promise<void> {
    const base = {
      merchant_id: this.state.config.merchantId,
      session_hash: shopper.session_hash_token,
    };
    const order = await this.state.api<StartPaymentResponse>("/payments", {
      ...base,
      method,
      purchase,
    } satisfies StartPaymentRequest);
    const payload: ReadyToPlaceOrder = {
      message: "Ready to place order",
      cart_id: order.cart_id,
      order_id: order.order_id,
    };
    await this.runListeners(payload);
    emit("service-ready-to-place-order", payload);
    const done = await this.state.api<CompletePaymentResponse>(
      `/payments/${encodeURIComponent(order.order_id)}/complete`,
      base satisfies CompletePaymentRequest,
    );
    this.state.tradein = null;
    emit("service-payment-completed", {
      message: "Payment completed",
      order_id: done.order_id,
      cart_id: done.cart_id,
    });
  }

  /**
   * A merchant creates its pending order in a listener. A listener that throws or rejects does
   * not cancel the payment: the money side must not depend on the merchant's page, and the signed
   * webhook still tells the merchant's server about the order (contract: Events, webhook).
   */
  private async runListeners(payload: ReadyToPlaceOrder): Promise<void> {
    const calls = this.listeners.map((listener) =>
      Promise.resolve()
        .then(() => listener({ ...payload }))
        .catch((error: unknown) => {
          console.warn("[service] a ready-to-place-order listener failed", error);
        }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        console.warn("[service] ready-to-place-order listeners timed out; paying anyway");
        resolve();
      }, LISTENER_TIMEOUT_MS);
    });
    await Promise.race([Promise.all(calls), timeout]);
    clearTimeout(timer);
  }
}
