// What the SDK tells the service about the merchant's integration, for the go-live readiness
// report (emulator/README.md, "Go-live readiness"): each callback's raw answer (status, content
// type, text: `12.00` survives only in the text) and, once per page, the Service Pay option's
// markup. Fire and forget: a report that fails changes nothing for the shopper.
import type { ServiceApi } from "./api";
import type { PaymentOptionDetails } from "./wire";

export type CallbackName = "shopper_data" | "purchase_data";
export type Observer = {
  callback(name: CallbackName, response: Response): void;
  markup(details: PaymentOptionDetails): void;
};

const MAX_TEXT = 64 * 1024;
/** The merchant renders the option after the details arrive; look once it had time to. */
const MARKUP_DELAY_MS = 1000;

const normal = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return normal(doc.body.textContent);
}

/** Whether the page (not the SDK's own shadow roots) shows `text` in a visible element. */
function visibleInPage(text: string): boolean {
  if (text === "") return false;
  for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
    if (!normal(element.textContent).includes(text)) continue;
    // The innermost element holding the whole text decides (an ancestor always holds it too).
    const inner = [...element.children].some((child) => normal(child.textContent).includes(text));
    if (inner) continue;
    const visible = element.checkVisibility
      ? element.checkVisibility()
      : element.offsetParent !== null;
    if (visible) return true;
  }
  return false;
}

export function observer(api: ServiceApi, merchantId: string): Observer {
  let markupSeen = false;
  const report = (body: Record<string, unknown>) =>
    void api("/observations", { merchant_id: merchantId, ...body }).catch(() => undefined);
  return {
    callback(name, response) {
      void response
        .clone()
        .text()
        .then((text) =>
          report({
            kind: "callback",
            callback: name,
            status: response.status,
            content_type: response.headers.get("content-type") ?? "",
            body_text: text.slice(0, MAX_TEXT),
          }),
        )
        .catch(() => undefined);
    },
    markup(details) {
      if (markupSeen || details.mode === "unavailable") return;
      markupSeen = true;
      setTimeout(() => {
        const radio = document.querySelector<HTMLInputElement>(
          'input[type="radio"][value="service_pay"], input[type="radio"][data-module-name]',
        );
        const label =
          radio?.closest("label") ??
          (radio?.id ? document.querySelector(`label[for="${CSS.escape(radio.id)}"]`) : null);
        const container = label ?? radio?.parentElement ?? null;
        // A disabled option must show its explanation (the info text): judged only otherwise.
        const judged = details.mode === "tradein_valid" || details.mode === "tradein_missing";
        const unselected = radio ? !radio.checked : true;
        report({
          kind: "payment_option_markup",
          found: radio !== null,
          name: radio?.name ?? null,
          value: radio?.value ?? null,
          module_name: radio?.dataset.moduleName ?? null,
          has_icon: container?.querySelector("img, svg, picture, [role='img']") != null,
          info_visible: judged && visibleInPage(plainText(details.info)),
          extra_visible_unselected:
            judged && unselected && visibleInPage(plainText(details.extra ?? "")),
        });
      }, MARKUP_DELAY_MS);
    },
  };
}
