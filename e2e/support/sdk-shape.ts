// The shape of an SDK surface as a shopper's browser holds it: element names, classes, `type`,
// `role`, `scope`, `for`/`id`, `disabled`, `data-*` and `aria-*` attributes, and texts, read
// through the open shadow roots the SDK renders into (contract, Front-end SDK: teasers and modals
// in their own shadow roots). Figures become the names of what the journey computed them from
// (`{leftToPay}`), so the same surface has one shape whatever the cart, and a wrong figure is a
// changed shape. Texts the service chooses (its catalog's names and questions) are masked where
// the journey says so.
//
// Each surface's expected shape is a committed file, e2e/sdk-shapes/<name>.txt, written only on
// purpose: `SDK_SHAPES=update npx playwright test e2e/sdk-shapes.e2e.ts`, then read in review. Not
// recorded from the SDK page suite: a staging run has no emulator to serve that page, and a
// committed file puts a change of look in front of a person as a diff.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { expect } from "./fixtures";

const SHAPES_DIR = path.resolve(import.meta.dirname, "../sdk-shapes");

interface RawNode {
  tag: string;
  attrs: [string, string][];
  text: string;
  masked: boolean;
  children: RawNode[];
}

/** Dates the SDK formats from the service's `valid_until` (Intl, medium date, short time), in
 *  English ("Dec 2, 2026, 5:50 AM") and in Spanish ("2 dic 2026, 5:50"). */
const DATE =
  /\b[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\b|\b\d{1,2} [a-z]{3,4}\.? \d{4}, \d{1,2}:\d{2}\b/g;

export interface ShapeOptions {
  /** name → the exact text(s) the journey computed (a money string, a device name, cents) */
  figures?: Record<string, string | string[]>;
  /** CSS selector of elements whose texts (and ids, names, values) are the service's own */
  serviceText?: string;
  /** With SDK_SHAPES=update, what says the state is there before it is recorded; a verdict
   *  never waits on it (the shape is polled until it is the committed one). */
  until?: Locator;
}

/** Reads `surface` (a teaser's host, a modal's dialog) into its shape, one line per element. */
export async function surfaceShape(surface: Locator, options: ShapeOptions = {}): Promise<string> {
  const raw = await surface.evaluate((root, serviceText): RawNode => {
    const KEPT = /^(type|role|scope|for|id|name|disabled|hidden|data-.*|aria-.*)$/;
    const read = (element: Element, inMasked: boolean): RawNode => {
      const masked = inMasked || (serviceText ? element.matches(serviceText) : false);
      const attrs: [string, string][] = [];
      for (const { name, value } of element.attributes) {
        if (!KEPT.test(name)) continue;
        if (masked && (name === "id" || name === "name" || name === "for")) continue;
        attrs.push([name, value]);
      }
      const cls = [...element.classList].sort().join(".");
      const text = [...element.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      const children: RawNode[] = [];
      const shadow = element.shadowRoot;
      for (const child of [...(shadow?.children ?? []), ...element.children]) {
        if (child.localName === "style" || child.localName === "script") continue;
        children.push(read(child, masked));
      }
      return {
        tag: cls ? `${element.localName}.${cls}` : element.localName,
        attrs: attrs.sort(([a], [b]) => a.localeCompare(b)),
        text,
        masked,
        children,
      };
    };
    return read(root, false);
  }, options.serviceText ?? "");
  // One pass, longest first: a name put in never has a figure replaced inside it again.
  const names = new Map<string, string>();
  for (const [name, values] of Object.entries(options.figures ?? {})) {
    // Read as the texts are, their white space collapsed (a Spanish amount's no-break space).
    for (const value of [values].flat()) if (value) names.set(value.replace(/\s+/g, " "), name);
  }
  const escaped = [...names.keys()]
    .sort((a, b) => b.length - a.length)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const figure = escaped.length ? new RegExp(escaped.join("|"), "g") : null;
  const named = (text: string) => {
    const dated = text.replace(DATE, "{date}");
    return figure ? dated.replace(figure, (value) => `{${names.get(value)}}`) : dated;
  };
  const render = (node: RawNode, depth: number): string[] => {
    const attrs = node.attrs.map(([k, v]) => (v === "" ? k : `${k}=${JSON.stringify(named(v))}`));
    const text = node.masked && node.text ? "{service}" : named(node.text);
    const head = [
      node.tag,
      attrs.length ? `[${attrs.join(" ")}]` : "",
      text ? JSON.stringify(text) : "",
    ]
      .filter(Boolean)
      .join(" ");
    const lines = [`${"  ".repeat(depth)}${head}`];
    let previous = "";
    for (const child of node.children) {
      // Siblings of one shape once: how many rows or choices there are is the cart's or the
      // service's; their figures are checked by formula where the journey computes them.
      const block = render(child, depth + 1).join("\n");
      if (block !== previous) lines.push(block);
      previous = block;
    }
    return lines;
  };
  return `${render(raw, 0).join("\n")}\n`;
}

/**
 * The surface has the shape committed as e2e/sdk-shapes/<name>.txt. With SDK_SHAPES=update the
 * file is written instead (a person then reviews the diff before committing it).
 */
export async function expectShape(name: string, surface: Locator, options: ShapeOptions = {}) {
  await expect(surface).toBeVisible();
  const file = path.join(SHAPES_DIR, `${name}.txt`);
  if (process.env.SDK_SHAPES === "update") {
    if (options.until) await expect(options.until).toBeVisible();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, await surfaceShape(surface, options));
    return;
  }
  expect(
    existsSync(file),
    `no committed shape for ${name}: write it with SDK_SHAPES=update and review it`,
  ).toBe(true);
  // Polled: the SDK renders a step after its call answers.
  await expect
    .poll(() => surfaceShape(surface, options), {
      message: `the shape of ${name} (e2e/sdk-shapes/${name}.txt)`,
    })
    .toBe(readFileSync(file, "utf8"));
}

/** The money string a shopper reads in the page's locale, as the SDK formats it (Intl). */
export function moneyText(cents: number, currency: string, locale = "en"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}

/**
 * The checkout's Service Pay option (the shop's markup around the SDK's details: contract,
 * Payment option markup) has the shape committed as e2e/sdk-shapes/<name>.txt. Its texts from
 * the service (the info, the extra, the disabled explanation) are masked, its label is named
 * `{label}` from the details the SDK gives the page, and React's generated id prefix `{uid}`.
 */
export async function expectOptionShape(name: string, option: Locator, label: string) {
  const radio = option.locator('input[type="radio"]');
  const uid = String(await radio.getAttribute("id")).replace(/-radio$/, "");
  await expectShape(name, option, {
    figures: { uid, label },
    serviceText:
      '[data-testid="service-pay-info"], [data-testid="service-pay-extra"], [data-testid="service-pay-explanation"]',
  });
}

/**
 * A teaser wears the SDK's own look, not the browser's defaults: its box sets itself apart from
 * the page (a background or a border) and its button is styled. Compared with the same elements
 * in a shadow root without styles, never with fixed colours: a candidate SDK may have a theme of
 * its own. The shape (expectShape) cannot see this; a teaser whose styles are lost keeps its
 * elements and words and still looks broken to the shopper.
 */
export async function expectTeaserLook(teaser: Locator) {
  const look = await teaser.evaluate((host) => {
    const bare = document.createElement("div");
    const bareRoot = bare.attachShadow({ mode: "open" });
    bareRoot.innerHTML = '<div></div><button type="button">x</button>';
    document.body.append(bare);
    const of = (element: Element | null | undefined) => {
      if (!element) return "missing";
      const style = getComputedStyle(element);
      return `${style.backgroundColor} | ${style.borderTopStyle} ${style.borderTopWidth} ${style.borderTopColor}`;
    };
    const [bareBox, bareButton] = [...bareRoot.children].map(of);
    bare.remove();
    const root = host.shadowRoot;
    return {
      bareBox,
      bareButton,
      box: of([...(root?.children ?? [])].find((child) => child.localName !== "style")),
      button: of(root?.querySelector("button")),
    };
  });
  expect(look.box, "the teaser's box").not.toBe("missing");
  expect(look.box, "the teaser's box: the SDK's look, not the browser's").not.toBe(look.bareBox);
  expect(look.button, "the teaser's button: the SDK's look, not the browser's").not.toBe(
    look.bareButton,
  );
}
