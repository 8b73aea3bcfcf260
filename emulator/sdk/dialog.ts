// An accessible modal: a native <dialog> opened with showModal() inside an open shadow root,
// labelled by its heading, with its own focus trap (Tab and Shift+Tab wrap inside it), Escape to
// close and focus returned to whatever opened it.
import { modalCss } from "./styles";

const FOCUSABLE =
  'button:not([disabled]), select:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** The focused element, looking through shadow roots (the opener may be inside a teaser). */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

export class Modal {
  readonly body: HTMLDivElement;
  private readonly host: HTMLDivElement;
  private readonly dialog: HTMLDialogElement;
  private readonly heading: HTMLHeadingElement;
  private opener: HTMLElement | null = null;

  constructor(
    name: string,
    private readonly onClosed: () => void,
    closeLabel: string,
  ) {
    this.host = document.createElement("div");
    this.host.dataset.serviceModal = name;
    const root = this.host.attachShadow({ mode: "open" });
    root.innerHTML = `<style>${modalCss}</style>`;
    this.dialog = document.createElement("dialog");
    this.dialog.setAttribute("aria-modal", "true");
    this.dialog.setAttribute("aria-labelledby", `${name}-title`);
    const header = document.createElement("div");
    header.className = "head";
    this.heading = document.createElement("h2");
    this.heading.id = `${name}-title`;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.setAttribute("aria-label", closeLabel);
    close.textContent = "×";
    close.addEventListener("click", () => this.close());
    header.append(this.heading, close);
    this.body = document.createElement("div");
    this.body.className = "body";
    this.dialog.append(header, this.body);
    root.append(this.dialog);
    this.dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      this.close();
    });
    this.dialog.addEventListener("keydown", (event) => this.onKeydown(event));
  }

  get isOpen(): boolean {
    return this.dialog.open;
  }

  /** Opens the dialog under `title`; false, changing nothing, when it is open already (the
   *  caller's step stays as the shopper left it, and focus returns to the original opener). */
  open(title: string): boolean {
    if (this.isOpen) return false;
    this.opener = deepActiveElement();
    this.heading.textContent = title;
    if (!this.host.isConnected) document.body.append(this.host);
    this.dialog.showModal();
    return true;
  }

  /** Moves focus to the first focusable element of the current step (after re-rendering). */
  focusFirst(selector = FOCUSABLE): void {
    const target =
      this.body.querySelector<HTMLElement>(selector) ??
      this.body.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
  }

  close(): void {
    if (!this.isOpen) return;
    this.dialog.close();
    this.host.remove();
    this.opener?.focus();
    this.opener = null;
    this.onClosed();
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      event.preventDefault();
      this.close();
      return;
    }
    if (event.key !== "Tab") return;
    const focusable = [...this.dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = this.host.shadowRoot?.activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }
}

/** Tiny DOM builder: keeps the modal code readable without a framework in the bundle. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/**
 * Renders the service's `info` / `extra` text, which may hold only <br> and <strong> (contract:
 * Payment option details): any other element is reduced to its text, attributes are dropped.
 */
export function simpleHtml(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  const out = document.createDocumentFragment();
  const copy = (from: Node, to: Node) => {
    for (const child of from.childNodes) {
      if (child.nodeType === Node.TEXT_NODE)
        to.appendChild(document.createTextNode(child.textContent ?? ""));
      else if (child instanceof Element && child.localName === "br") to.appendChild(el("br"));
      else if (child instanceof Element && child.localName === "strong")
        copy(child, to.appendChild(el("strong")));
      else copy(child, to);
    }
  };
  copy(template.content, out);
  return out;
}
