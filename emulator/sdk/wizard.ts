// The valuation wizard (contract: Front-end SDK `openValuation()`; facts: three steps). The DOM is
// a stable interface: the storefront's e2e driver and the service's SDK team rely on the roles,
// labels and button names listed in emulator/README.md ("Browser SDK").
import { el, Modal } from "./dialog";
import { emit } from "./events";
import { dateTime, failureMessage, money, t } from "./format";
import type { SdkState } from "./state";
import type {
  AcceptRequest,
  CatalogModel,
  CatalogResponse,
  TradeInView,
  ValuationRequest,
} from "./wire";

export class Wizard {
  private readonly modal: Modal;
  private catalog: CatalogResponse | null = null;
  private model: CatalogModel | null = null;
  private answers: Record<string, string> = {};
  /** The session hash of the shopper the wizard was opened for: its valuation and acceptance
   *  carry it. Set by `open()` before any step: only a shopper's wizard goes past the login
   *  prompt. */
  private sessionHash!: string;

  constructor(
    private readonly state: SdkState,
    private readonly onAccepted: (tradein: TradeInView) => void,
  ) {
    this.modal = new Modal(
      "service-valuation",
      () => emit("service-modal-closed", { message: "Valuation modal closed", modal: "valuation" }),
      t(state.locale, "close"),
    );
  }

  async open(): Promise<void> {
    const { locale } = this.state;
    if (!this.modal.open(t(locale, "wizardTitle"))) return;
    const shopper = this.state.shopper;
    if (!shopper) {
      this.showLogin();
      return;
    }
    this.sessionHash = shopper.session_hash_token;
    this.model = null;
    this.answers = {};
    try {
      this.catalog ??= await this.state.api<CatalogResponse>(
        `/catalog?merchant_id=${encodeURIComponent(this.state.config.merchantId)}`,
      );
      this.showDevice();
    } catch (error) {
      this.showError(failureMessage(this.state.locale, error));
    }
  }

  private stepHeading(n: number, title: string): HTMLElement[] {
    const { locale } = this.state;
    return [el("p", { class: "step" }, t(locale, "step", { n: String(n) })), el("h3", {}, title)];
  }

  private showLogin(): void {
    const { locale } = this.state;
    const close = el("button", { type: "button", class: "primary" }, t(locale, "close"));
    close.addEventListener("click", () => this.modal.close());
    this.modal.body.replaceChildren(
      el("h3", {}, t(locale, "loginTitle")),
      el("p", {}, t(locale, "loginText")),
      el("div", { class: "actions" }, close),
    );
    this.modal.focusFirst(".actions button");
  }

  private showError(message = t(this.state.locale, "failed")): void {
    const close = el("button", { type: "button", class: "primary" }, t(this.state.locale, "close"));
    close.addEventListener("click", () => this.modal.close());
    this.modal.body.replaceChildren(
      el("p", { class: "error", role: "alert" }, message),
      el("div", { class: "actions" }, close),
    );
    this.modal.focusFirst(".actions button");
  }

  private showDevice(): void {
    const { locale } = this.state;
    const categories = this.catalog?.categories ?? [];
    const category = el("select", { id: "service-category", name: "category" });
    const model = el("select", { id: "service-model", name: "model", disabled: "" });
    const placeholder = () => el("option", { value: "" }, t(locale, "chooseOne"));
    category.append(placeholder(), ...categories.map((c) => el("option", { value: c.id }, c.name)));
    const fillModels = () => {
      const chosen = categories.find((c) => c.id === category.value);
      model.replaceChildren(
        placeholder(),
        ...(chosen?.models ?? []).map((m) =>
          el("option", { value: m.id }, m.test ? `${m.name} (${t(locale, "testMarker")})` : m.name),
        ),
      );
      model.disabled = !chosen;
    };
    category.addEventListener("change", fillModels);
    const previous = this.model;
    if (previous) {
      const owner = categories.find((c) => c.models.some((m) => m.id === previous.id));
      if (owner) {
        category.value = owner.id;
        fillModels();
        model.value = previous.id;
      }
    }
    const problem = el("p", { class: "error", role: "alert" });
    const next = el("button", { type: "button", class: "primary" }, t(locale, "next"));
    next.addEventListener("click", () => {
      const chosen = categories
        .find((c) => c.id === category.value)
        ?.models.find((m) => m.id === model.value);
      if (!chosen) {
        problem.textContent = t(locale, "pickModel");
        return;
      }
      if (this.model?.id !== chosen.id) this.answers = {};
      this.model = chosen;
      // Fires when a shopper with no earlier valuation (the service says so at start-up)
      // commits to a device: a new user's valuation has started. Once per shopper.
      if (!this.state.earlierValuation) {
        this.state.earlierValuation = true;
        emit("service-new-user-valuation-started", {
          message: "Valuation started",
          model_id: chosen.id,
        });
      }
      this.showCondition();
    });
    this.modal.body.replaceChildren(
      ...this.stepHeading(1, t(locale, "stepDevice")),
      el("label", { for: "service-category" }, t(locale, "category")),
      category,
      el("label", { for: "service-model" }, t(locale, "model")),
      model,
      problem,
      el("div", { class: "actions" }, next),
    );
    this.modal.focusFirst("select");
  }

  private showCondition(): void {
    const { locale } = this.state;
    const model = this.model;
    if (!model) return;
    const groups = model.questions.map((question) => {
      const legend = el("legend", {}, question.text);
      const fieldset = el("fieldset", {}, legend);
      for (const option of question.options) {
        const input = el("input", {
          type: "radio",
          name: `q-${question.id}`,
          value: option.id,
        });
        if (this.answers[question.id] === option.id) input.checked = true;
        input.addEventListener("change", () => {
          this.answers[question.id] = option.id;
        });
        fieldset.append(el("label", {}, input, option.label));
      }
      return fieldset;
    });
    const problem = el("p", { class: "error", role: "alert" });
    const back = el("button", { type: "button", class: "secondary" }, t(locale, "back"));
    back.addEventListener("click", () => this.showDevice());
    const next = el("button", { type: "button", class: "primary" }, t(locale, "getOffer"));
    next.addEventListener("click", async () => {
      if (model.questions.some((q) => !this.answers[q.id])) {
        problem.textContent = t(locale, "required");
        return;
      }
      next.disabled = true;
      try {
        const offer = await this.state.api<TradeInView>("/valuations", {
          merchant_id: this.state.config.merchantId,
          session_hash: this.sessionHash,
          model_id: model.id,
          answers: this.answers,
        } satisfies ValuationRequest);
        this.showOffer(offer);
      } catch (error) {
        this.showError(failureMessage(this.state.locale, error));
      }
    });
    this.modal.body.replaceChildren(
      ...this.stepHeading(2, t(locale, "stepCondition")),
      ...groups,
      problem,
      el("div", { class: "actions" }, back, next),
    );
    this.modal.focusFirst("input");
  }

  private showOffer(offer: TradeInView): void {
    const { locale } = this.state;
    const value = money(offer.value, offer.currency, locale);
    const back = el("button", { type: "button", class: "secondary" }, t(locale, "back"));
    back.addEventListener("click", () => this.showCondition());
    const accept = el("button", { type: "button", class: "primary" }, t(locale, "accept"));
    accept.addEventListener("click", async () => {
      accept.disabled = true;
      try {
        const accepted = await this.state.api<TradeInView>(
          `/valuations/${encodeURIComponent(offer.id)}/accept`,
          {
            merchant_id: this.state.config.merchantId,
            session_hash: this.sessionHash,
          } satisfies AcceptRequest,
        );
        this.onAccepted(accepted);
        this.modal.close();
      } catch (error) {
        this.showError(failureMessage(this.state.locale, error));
      }
    });
    this.modal.body.replaceChildren(
      ...this.stepHeading(3, t(locale, "stepOffer")),
      el("p", { class: "offer-value", "data-offer-value": String(offer.value) }, value),
      el("p", {}, t(locale, "offerIntro", { value, device: offer.device })),
      el("p", {}, t(locale, "validUntil", { date: dateTime(offer.valid_until, locale) })),
      el("p", {}, t(locale, "estimate")),
      el("div", { class: "actions" }, back, accept),
    );
    this.modal.focusFirst(".actions .primary");
  }
}
