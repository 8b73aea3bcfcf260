// What the SDK tells the service about the merchant's integration, for the go-live readiness
// report (emulator/README.md, "Go-live readiness"): each callback's raw answer (status, content
// type, text: `12.00` survives only in the text) and, once per page, the Service Pay option's
// markup. Fire and forget: a report that fails changes nothing for the shopper.
import type { ServiceApi } from "./api";
import type { ObservationSessionResponse, ObservationStamp, PaymentOptionDetails } from "./wire";

export type CallbackName = "shopper_data" | "purchase_data";
export type Observer = {
  callback(name: CallbackName, response: Response): void;
  markup(details: PaymentOptionDetails): void;
};

const MAX_TEXT = 64 * 1024;
/** The merchant renders the option after the details arrive; look once it had time to. */
const MARKUP_DELAY_MS = 500;
const MARKUP_TRIES = 20;

const normal = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return normal(doc.body.textContent);
}

/**
 * Where the option's form (not the SDK's own shadow roots) shows `text` visibly, or null. Text in
 * pre/code is data on display (a debugging panel), not the option's text. Text inside a
 * disclosure the shopper opened (a control with aria-expanded="true" whose aria-controls names
 * it or an ancestor) is the tooltip or side panel the contract asks for, not text left visible.
 */
function visibleIn(text: string, scope: HTMLElement): string | null {
  if (text === "") return null;
  for (const element of scope.querySelectorAll<HTMLElement>("*")) {
    if (element.closest("pre, code")) continue;
    if (!normal(element.textContent).includes(text)) continue;
    // The innermost element holding the whole text decides (an ancestor always holds it too).
    const inner = [...element.children].some((child) => normal(child.textContent).includes(text));
    if (inner) continue;
    const visible = element.checkVisibility
      ? element.checkVisibility()
      : element.offsetParent !== null;
    if (visible && !openedByShopper(element)) {
      const id = element.id ? `#${element.id}` : "";
      const classes = [...element.classList].map((c) => `.${c}`).join("");
      return `${element.tagName.toLowerCase()}${id}${classes}`;
    }
  }
  return null;
}

function openedByShopper(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (
      node.id &&
      document.querySelector(`[aria-controls~="${CSS.escape(node.id)}"][aria-expanded="true"]`)
    ) {
      return true;
    }
  }
  return false;
}

/** The Service Pay radio: by value, by data-module-name, or by a label showing the option's label. */
function findServiceRadio(label: string): HTMLInputElement | null {
  const radios = [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  return (
    radios.find((r) => r.value === "service_pay") ??
    radios.find((r) => r.dataset.moduleName !== undefined) ??
    radios.find((r) =>
      [...(r.labels ?? [])].some((l) => normal(l.textContent).includes(normal(label))),
    ) ??
    null
  );
}

export function observer(api: ServiceApi, merchantId: string): Observer {
  let markupSeen = false;
  // The page's observation session, asked for with the first report: every report carries its
  // token and a number of its own (the service refuses any other, emulator/README.md).
  let session: Promise<string | null> | undefined;
  let seq = 0;
  const report = (body: Record<string, unknown>) => {
    session ??= api<ObservationSessionResponse>("/observations/session", {
      merchant_id: merchantId,
    }).then(
      (answer) => answer.observation_token,
      () => null,
    );
    void session.then((token) => {
      if (token === null) return;
      seq += 1;
      const stamp: ObservationStamp = { merchant_id: merchantId, token, seq };
      return api("/observations", { ...body, ...stamp }).catch(() => undefined);
    });
  };
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
      // The merchant renders the option after the details arrive: look for it a few times. A
      // page that asked for the details but shows no option (a product page, or one the shopper
      // left) is not judged: only a radio that is there is reported.
      let tries = 0;
      const look = () => {
        const radio = findServiceRadio(details.label);
        if (!radio) {
          tries += 1;
          if (tries < MARKUP_TRIES) setTimeout(look, MARKUP_DELAY_MS);
          else markupSeen = false;
          return;
        }
        const label =
          radio.closest("label") ??
          (radio.id ? document.querySelector(`label[for="${CSS.escape(radio.id)}"]`) : null);
        const container = label ?? radio.parentElement;
        // A disabled option must show its explanation (the info text): judged only otherwise.
        const judged = details.mode === "tradein_valid" || details.mode === "tradein_missing";
        const scope = radio.form ?? radio.closest("fieldset") ?? document.body;
        const info = judged ? visibleIn(plainText(details.info), scope) : null;
        const extra =
          judged && !radio.checked ? visibleIn(plainText(details.extra ?? ""), scope) : null;
        report({
          kind: "payment_option_markup",
          found: true,
          name: radio.name,
          value: radio.value,
          module_name: radio.dataset.moduleName ?? null,
          has_icon: container?.querySelector("img, svg, picture, [role='img']") != null,
          info_visible: info !== null,
          extra_visible_unselected: extra !== null,
          visible_in: info ?? extra,
        });
      };
      setTimeout(look, MARKUP_DELAY_MS);
    },
  };
}
