import type { Page } from "@playwright/test";

/** The SDK's warnings in the page's console (its words for the developer, `[service] …`), from
 *  every page `page` loads from now on; `seen()` gives those new since its last call. */
export function sdkWarnings(page: Page) {
  const all: string[] = [];
  let read = 0;
  page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("[service]"))
      all.push(message.text());
  });
  return {
    seen() {
      const fresh = all.slice(read);
      read = all.length;
      return fresh;
    },
  };
}
