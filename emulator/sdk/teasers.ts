// Teasers (contract: Front-end SDK, Teasers): every `.service-teaser[data-type]` element, injected
// into its `data-target` when given, plus every element matched by the configured selectors. Each
// teaser renders in its own open shadow root, so styles never leak either way.
import type { TeaserType } from "./config";
import { el } from "./dialog";
import { dateTime, type Locale, money, t } from "./format";
import { teaserCss } from "./styles";
import type { TradeInView } from "./wire";

const TYPES: readonly TeaserType[] = ["banner", "product-widget", "cart-summary", "thank-you"];

/** A teaser's host: the element the SDK appends to its target, its content in a shadow root. */
const HOST_SELECTOR = "[data-service-teaser]";

function isTeaserType(value: string | undefined): value is TeaserType {
  return TYPES.includes(value as TeaserType);
}

export type TeaserContext = {
  locale: Locale;
  selectors: Partial<Record<TeaserType, string>>;
  activeTradeIn: () => TradeInView | null;
  openValuation: () => void;
};

export class Teasers {
  /**
   * One button per teaser this SDK made, kept across renders so focus can return to it after the
   * wizard. Its keys are also how `renderAll` tells this SDK's hosts from any other.
   */
  private readonly buttons = new WeakMap<HTMLElement, HTMLButtonElement>();
  /** Selectors already reported as not CSS, so the console says it once. */
  private readonly invalid = new Set<string>();
  private scheduled = false;

  constructor(private readonly ctx: TeaserContext) {}

  start(): void {
    this.scan();
    // Single-page storefronts add teasers after the SDK loaded; watch for them.
    new MutationObserver(() => this.schedule()).observe(document.body, {
      childList: true,
      subtree: true,
    });
  }

  /**
   * Re-renders every teaser, e.g. after a valuation was accepted or expired. The teasers are the
   * hosts this SDK made that are in the page now: none is kept in a list, so a single-page app's
   * teasers left behind by a navigation are not held in memory (the buttons, one per host made,
   * are kept weakly). A host it did not make (a second SDK's on the same page, or a merchant's
   * own element with the same attribute) is not this SDK's to overwrite.
   */
  renderAll(): void {
    for (const host of document.querySelectorAll<HTMLElement>(HOST_SELECTOR)) {
      if (this.buttons.has(host)) this.render(host);
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.scan();
    });
  }

  private scan(): void {
    for (const element of document.querySelectorAll<HTMLElement>(".service-teaser[data-type]")) {
      const type = element.dataset.type;
      if (!isTeaserType(type)) continue;
      const targetSelector = element.dataset.target;
      const target = targetSelector ? this.matching(targetSelector, "a data-target")[0] : element;
      if (target) this.inject(target, type);
    }
    for (const type of TYPES) {
      const selector = this.ctx.selectors[type];
      if (!selector) continue;
      for (const target of this.matching(selector, `the ${type} teaser's selector`)) {
        this.inject(target, type);
      }
    }
  }

  /**
   * What `selector` matches; nothing when it is not CSS, which the console says once: a typo in
   * the merchant's markup or configuration must not stop the SDK (contract, Front-end SDK: the
   * shop keeps working).
   */
  private matching(selector: string, what: string): HTMLElement[] {
    try {
      return [...document.querySelectorAll<HTMLElement>(selector)];
    } catch {
      if (!this.invalid.has(selector)) {
        this.invalid.add(selector);
        console.warn(
          `[service] ${what} is not a CSS selector, so no teaser goes there: ${selector}`,
        );
      }
      return [];
    }
  }

  private inject(target: HTMLElement, type: TeaserType): void {
    const existing = [...target.children].some(
      (child) => child instanceof HTMLElement && child.dataset.serviceTeaser === type,
    );
    if (existing) return;
    const host = document.createElement("div");
    host.dataset.serviceTeaser = type;
    host.attachShadow({ mode: "open" });
    target.append(host);
    this.render(host);
  }

  private render(host: HTMLElement): void {
    const root = host.shadowRoot;
    const type = host.dataset.serviceTeaser;
    if (!root || !isTeaserType(type)) return;
    const { locale } = this.ctx;
    const tradein = this.ctx.activeTradeIn();
    let button = this.buttons.get(host);
    if (!button) {
      button = el("button", { type: "button" });
      // The second click of a double click (detail 2) opens nothing: a shopper who double-clicks
      // a wizard's last button closes it with the first click, and the second lands on whatever
      // lay beneath, often this button. A keyboard's click is detail 0, a single click 1.
      button.addEventListener("click", (event) => {
        if (event.detail > 1) return;
        this.ctx.openValuation();
      });
      this.buttons.set(host, button);
    }
    let content: HTMLElement;
    if (tradein) {
      host.dataset.state = "offer";
      const value = money(tradein.value, tradein.currency, locale);
      button.className = "secondary";
      button.textContent = t(locale, "again");
      content = el(
        "div",
        { class: "teaser offer", role: "group", "aria-label": t(locale, "offer") },
        el(
          "div",
          {},
          el(
            "p",
            {},
            el("strong", {}, `${t(locale, "offer")}: `),
            t(locale, "offerLine", { device: tradein.device, value }),
          ),
          el("p", {}, t(locale, "validUntil", { date: dateTime(tradein.valid_until, locale) })),
        ),
        button,
      );
    } else {
      host.dataset.state = "cta";
      button.className = "primary";
      button.textContent = t(locale, "calculate");
      content = el("div", { class: "teaser" }, el("p", {}, t(locale, type)), button);
    }
    root.replaceChildren(el("style", {}, teaserCss), content);
  }
}
