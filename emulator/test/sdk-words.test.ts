// Every text of the SDK's message table has its place in the every-word browser check
// (emulator/e2e/words.ts, read by emulator/e2e/every-word.e2e.ts), in every language: a key added
// to the table and not to the check fails here, before any browser runs.
import { describe, expect, it } from "vitest";
import { LANGUAGES, MESSAGES, WHERE_EACH_WORD_SHOWS } from "../e2e/words";
import { en, es } from "../sdk/format";

describe("the SDK's words and the browser check that reads them", () => {
  it("names every key of the message table, and no key the table lacks", () => {
    expect(Object.keys(WHERE_EACH_WORD_SHOWS).sort()).toEqual(Object.keys(en).sort());
  });

  it("covers every language the SDK ships, each with every key translated", () => {
    expect(LANGUAGES).toEqual(["en", "es"]);
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const lang of LANGUAGES) {
      for (const [key, text] of Object.entries(MESSAGES[lang])) {
        expect(text.trim(), `${lang}.${key}`).not.toBe("");
      }
    }
  });
});
