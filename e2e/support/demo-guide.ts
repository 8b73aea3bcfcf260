// The sales demo guide (docs/demo.md) as the browser suite reads it: every sentence the guide
// puts in double quotes is a text the screen shows, word for word. A journey checks each one
// where the guide says it appears (`shows`); the guide's last check fails when a quoted sentence
// was never checked, so the guide cannot promise what no test has seen.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator } from "@playwright/test";

// Playwright runs from the project's root (playwright.config.ts).
export const GUIDE_FILE = path.resolve("docs/demo.md");

/**
 * The guide's quoted sentences, whitespace collapsed (a sentence may wrap across lines). Code
 * (fenced blocks and `inline`) is not prose: its quotes are JSON and shell.
 */
export function quotedSentences(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const found = [...prose.matchAll(/"([^"\n]+(?:\n[^"\n]+)*)"/g)].map((m) =>
    (m[1] ?? "").replace(/\s+/g, " ").trim(),
  );
  return [...new Set(found)];
}

/** A quoted sentence as a pattern: `…` stands for an id, a time or an amount of the run. */
export function sentencePattern(sentence: string): RegExp {
  const parts = sentence
    .split(/\s*…\s*/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
  return new RegExp(parts.join("[\\s\\S]*?"));
}

export class DemoGuide {
  readonly sentences = quotedSentences(readFileSync(GUIDE_FILE, "utf8"));
  private readonly checked = new Set<string>();

  /**
   * The screen shows the guide's sentence inside `where` (its rendered text, so a <br> reads as
   * a line break). The sentence must be one the guide quotes: a test cannot check words the
   * guide does not say.
   */
  async shows(where: Locator, sentence: string): Promise<void> {
    expect(this.sentences, `docs/demo.md quotes "${sentence}"`).toContain(sentence);
    await expect(where).toContainText(sentencePattern(sentence), { useInnerText: true });
    this.checked.add(sentence);
  }

  /** The guide's quoted sentences no journey has seen on the screen yet. */
  unchecked(): string[] {
    return this.sentences.filter((s) => !this.checked.has(s));
  }
}
