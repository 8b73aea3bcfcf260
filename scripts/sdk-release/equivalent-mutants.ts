// StrykerJS's mutants of emulator/sdk that no test can tell from the original, each with why in
// one line (./sampled-mutants.ts). A survivor of a sampled run is either listed here or killed
// by a new test. Matched by file, mutator, and the exact original and replacement text, so an
// entry follows its code when lines move, and stops matching when the code changes.
import type { SdkMutant } from "./sampled-mutants";

export interface EquivalentMutant {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  why: string;
  /** how many of the tool's mutants the entry stands for, when the same text occurs more than
   *  once in the file (each occurrence covered by the why); 1 when absent */
  count?: number;
}

export const EQUIVALENT_MUTANTS: EquivalentMutant[] = [
  {
    file: "config.ts",
    mutator: "ConditionalExpression",
    original: "selector",
    replacement: "true",
    why: "a teaser type with no selector configured is then kept as undefined rather than left out, and the teasers skip a type whose selector is undefined as they skip one that is absent",
  },
  {
    file: "config.ts",
    mutator: "Regex",
    original: "/[+,\\s]+/",
    replacement: "/[+,\\s]/",
    why: "products split at each separator character rather than at each run of them: a run gives empty names between, and whether ep1 is among the names is the same",
  },
  {
    file: "dialog.ts",
    mutator: "BlockStatement",
    original:
      "{\n  let active = document.activeElement;\n  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;\n  return active instanceof HTMLElement ? active : null;\n}",
    replacement: "{}",
    why: "the SDK's own return of focus to the opener: a modal dialog's close returns focus to the element focused when it opened (HTML, the dialog's previously focused element), which Chromium does into the teaser's shadow root too; the SDK's is for browsers that do not",
  },
  {
    file: "dialog.ts",
    mutator: "StringLiteral",
    original: '""',
    replacement: '"Stryker was here!"',
    why: "simpleHtml's `child.textContent ?? \"\"` for a text node: a Text node's textContent is its data, a string, never null, so the fallback is never read",
  },
  {
    file: "format.ts",
    mutator: "StringLiteral",
    original: '""',
    replacement: '"Stryker was here!"',
    why: "t's text for a placeholder its caller did not fill: every call fills each of its template's placeholders (step's n, offerLine's device and value, validUntil's date, offerIntro's value and device), so the fallback is never read",
  },
  {
    file: "service.ts",
    mutator: "EqualityOperator",
    original: "due > 0",
    replacement: "due >= 0",
    why: "a valuation due at this very millisecond: the timer of 0 ms renders the teasers the next line renders anyway",
  },
  {
    file: "service.ts",
    mutator: "ConditionalExpression",
    original: "due > 0",
    replacement: "true",
    why: "a valuation already past valid_until when it arrives: the timer, due at once, renders the teasers into the state the next line renders (no active trade-in), their buttons kept, so focus stays",
  },
  {
    file: "service.ts",
    mutator: "ConditionalExpression",
    original: "due > 0 && due < 2 ** 31 - 1",
    replacement: "true",
    why: "a timer for every valuation: one already past valid_until renders at once the state the next line renders (as `due > 0` → `true` above), and one due past setTimeout's range (about 24.8 days) fires at once too, rendering the trade-in still active, as the original leaves it untimed",
  },
  {
    file: "service.ts",
    mutator: "StringLiteral",
    original: '""',
    replacement: '"Stryker was here!"',
    why: 'paymentOptionDetailsFor a product other than ep1 sends the service products without ep1; the service reads products only for whether ep1 is in them, so "" and any other text without ep1 are both answered unavailable',
  },
  ...["false", "!first && !last"].map((replacement) => ({
    file: "dialog.ts",
    mutator: replacement === "false" ? "ConditionalExpression" : "LogicalOperator",
    original: "!first || !last",
    replacement,
    why: "the focus trap's guard for a dialog with nothing focusable: every SDK dialog has its close button",
  })),
  {
    file: "dialog.ts",
    mutator: "BlockStatement",
    original: "{\n      event.preventDefault();\n      this.close();\n      return;\n    }",
    replacement: "{}",
    why: "Escape's own handler: the native dialog's cancel event, which the SDK handles the same way, closes it (Chromium fired it on every Escape, twice in a row after a script opened the wizard, with no click)",
  },
  {
    file: "dialog.ts",
    mutator: "ConditionalExpression",
    original: 'event.key === "Escape"',
    replacement: "false",
    why: "Escape's own check: as with its handler emptied above, the native dialog's cancel event closes the dialog the same way",
  },
  {
    file: "observe.ts",
    mutator: "StringLiteral",
    original: '" "',
    replacement: '""',
    why: "whitespace dropped instead of collapsed, on both sides of every comparison of the option's texts: only a page showing the service's text with its spaces moved, which no rendering of that text does, tells them apart",
  },
  {
    file: "api.ts",
    mutator: "BlockStatement",
    original: "{\n      clearTimeout(timer);\n    }",
    replacement: "{}",
    why: "the time limit's timer left running after the answer was read in full: aborting a fetch that has finished changes nothing",
  },
  {
    file: "dialog.ts",
    mutator: "OptionalChaining",
    original: "this.host.shadowRoot?.activeElement",
    replacement: "this.host.shadowRoot.activeElement",
    why: "the dialog's host is given an open shadow root in its constructor and never replaced, so its shadowRoot is never null (the `?.` is for the DOM's type only)",
  },
  {
    file: "wizard.ts",
    mutator: "StringLiteral",
    original: '"failed"',
    replacement: '""',
    why: "showError's default message, never used: each of its three callers passes failureMessage(…), which always returns a text",
  },
  {
    file: "dialog.ts",
    mutator: "OptionalChaining",
    original: "target?.focus",
    replacement: "target.focus",
    why: "focusFirst is called only right after a step is rendered into the body, and every step the SDK renders has a button in its actions, so a focusable element is always found",
  },
  {
    file: "service.ts",
    mutator: "ArrowFunction",
    original: "() => null",
    replacement: "() => undefined",
    why: "the selected event's details when the service could not compute them: read only as `details ?? { mode }`, where undefined and null are the same",
  },
];

export function equivalenceOf(
  mutant: Pick<SdkMutant, "file" | "mutator" | "original" | "replacement">,
): string | undefined {
  return EQUIVALENT_MUTANTS.find(
    (e) =>
      e.file === mutant.file &&
      e.mutator === mutant.mutator &&
      e.original === mutant.original &&
      e.replacement === mutant.replacement,
  )?.why;
}
