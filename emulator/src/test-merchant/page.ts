// The bare test merchant page: the smallest integration the contract describes (configuration,
// dynamic import, teasers, the Service Pay radio, the submit handler), with every SDK event
// recorded on `window.__serviceEvents` for the Playwright tests in emulator/e2e.

export type PageOptions = {
  title: string;
  assetsUrl: string;
  merchantId: string;
  callbackBase: string;
  confirmUrl: string;
  products: string;
  lang: string;
  checkout: boolean;
  /** The careless merchant's mistakes this page commits (emulator/src/test-merchant/careless.ts). */
  careless: string[];
  /** Show the careless merchant's panel: one button per mistake. */
  carelessPanel: boolean;
  /** The radio's data-module-name; the SDK recognises only its own (a test may give another). */
  moduleName: string;
};

const EVENTS = [
  "service-ready",
  "service-valuation-updated",
  "service-payment-completed",
  "service-modal-closed",
  "servicepay-payment-method-selected",
  "servicepay-payment-method-unselected",
  "service-ready-to-place-order",
  "service-new-user-valuation-started",
  "service-purchase-updated",
];

/**
 * The careless merchant's panel: one button per mistake. Page mistakes reload the page with the
 * mistake rendered; the others are committed by the test merchant's backend, callbacks or receiver.
 */
function carelessPanel(): string {
  return `<section aria-labelledby="careless-title">
  <h2 id="careless-title">Careless merchant</h2>
  <p>Each button commits one mistake the go-live readiness report looks for (see the report in the inspector).</p>
  <ul id="mistakes"></ul>
  <p id="careless-status" role="status" aria-live="polite"></p>
</section>
<script type="module">
const base = "/__emulator/test-merchant";
const list = document.getElementById("mistakes");
const status = document.getElementById("careless-status");
const { mistakes } = await (await fetch(base + "/careless")).json();
for (const m of mistakes) {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = m.rule + ": " + m.does;
  button.dataset.mistake = m.rule;
  button.addEventListener("click", async () => {
    if (m.where === "page") { location.search = "?careless=" + encodeURIComponent(m.rule); return; }
    status.textContent = "Committing " + m.rule + "…";
    const res = await fetch(base + "/careless", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mistake: m.rule }) });
    status.textContent = res.ok ? "Committed: " + m.rule + (m.where === "receiver" ? " (now run the active checks)" : "") : "Failed: " + res.status;
  });
  li.append(button);
  list.append(li);
}
</script>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function testMerchantPage(options: PageOptions): string {
  const config = {
    merchantId: options.merchantId,
    browserCallbackBase: options.callbackBase,
    confirmUrl: options.confirmUrl,
    products: options.products,
    bannerCssSelector: ".slot-banner",
    productWidgetCssSelector: ".slot-product-widget",
    cartSummaryCssSelector: ".slot-cart-summary",
    thankYouCssSelector: ".slot-thank-you",
  };
  const careless = new Set(options.careless);
  const badMarkup = careless.has("markup.payment-option");
  const shownTexts = careless.has("markup.info-extra-hidden");
  const radioAttributes = badMarkup ? "" : ` data-module-name="${escapeHtml(options.moduleName)}"`;
  const icon = badMarkup
    ? ""
    : `<img src="${escapeHtml(new URL("service-pay.svg", options.assetsUrl).href)}" alt="" width="24" height="16">`;
  const hidden = shownTexts ? "" : " hidden";
  const checkout = options.checkout
    ? `<section aria-labelledby="checkout-title">
  <h2 id="checkout-title">Checkout</h2>
  <div class="slot-cart-summary"></div>
  <form id="checkout">
    <fieldset>
      <legend>Payment method</legend>
      <label><input type="radio" name="payment_method" value="card" checked> Card (merchant)</label>
      <label id="service-option"><input type="radio" name="payment_method"${radioAttributes} value="${badMarkup ? "service-pay" : "service_pay"}">
        ${icon}
        <span id="service-label">Pay with Service</span></label>
      <p id="service-info"${hidden}></p>
      <p id="service-extra"${hidden}></p>
    </fieldset>
    <button type="submit">Place order</button>
  </form>
</section>`
    : `<section aria-labelledby="thanks-title"><h2 id="thanks-title">Thank you</h2>
  <div class="service-teaser" data-type="thank-you"></div><div class="slot-thank-you"></div></section>`;
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#111}section{margin:1.5rem 0}</style>
</head>
<body>
<header><h1>${escapeHtml(options.title)}</h1></header>
<main>
<section aria-label="Promotions"><div class="service-teaser" data-type="banner"></div><div class="slot-banner"></div></section>
<section aria-labelledby="product-title">
  <h2 id="product-title">Vertex Book 16</h2>
  <div class="service-teaser" data-type="product-widget" data-target="#product-widget-slot"></div>
  <div id="product-widget-slot"></div>
  <div class="slot-product-widget"></div>
</section>
<section aria-label="Cart"><div class="service-teaser" data-type="cart-summary"></div></section>
${checkout}
${options.carelessPanel ? carelessPanel() : ""}
</main>
<script type="module">
window.serviceConfiguration = ${JSON.stringify(config)};
window.__serviceEvents = [];
window.__readyToPlaceOrder = [];
for (const name of ${JSON.stringify(EVENTS)}) {
  window.addEventListener(name, (event) => {
    const entry = { name, detail: event.detail, page: location.pathname };
    window.__serviceEvents.push(entry);
    // Kept across the navigation to confirmUrl, so a test sees the whole payment's events.
    const log = JSON.parse(sessionStorage.getItem("serviceEventLog") ?? "[]");
    log.push(entry);
    sessionStorage.setItem("serviceEventLog", JSON.stringify(log));
  });
}
const module = await import(${JSON.stringify(options.assetsUrl)});
window.Service = module.default;
window.Service.addReadyToPlaceOrderListener(async (payload) => {
  window.__readyToPlaceOrder.push(payload);
  if (window.__failReadyListener) throw new Error("merchant listener failed");
});
const form = document.getElementById("checkout");
if (form) {
  const option = document.querySelector("#service-option input");
  const info = document.getElementById("service-info");
  const extra = document.getElementById("service-extra");
  const refresh = async () => {
    const details = await window.Service.paymentOptionDetailsFor("ep1");
    document.getElementById("service-option").hidden = details.mode === "unavailable";
    option.disabled = details.mode === "tradein_invalid";
    info.innerHTML = details.info;
    extra.innerHTML = details.extra ?? "";
    form.dataset.mode = details.mode;
    form.dataset.template = details.template_name;
    return details;
  };
  window.__refreshPaymentOption = refresh;
  await refresh();
  for (const radio of form.querySelectorAll('input[name="payment_method"]')) {
    radio.addEventListener("change", () => {
      const chosen = option.checked;
      if (!${JSON.stringify(shownTexts)}) extra.hidden = !chosen;
      window.Service.updatePaymentSelected(chosen);
    });
  }
  window.addEventListener("service-valuation-updated", async () => {
    const details = await refresh();
    if (option.checked && details.mode !== "tradein_valid") {
      form.querySelector('input[value="card"]').checked = true;
      window.Service.updatePaymentSelected(false);
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (option.checked) window.Service.openPayment();
  });
}
document.body.dataset.ready = "true";
</script>
</body>
</html>`;
}
