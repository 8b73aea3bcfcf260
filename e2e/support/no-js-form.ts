import { type APIRequestContext, expect } from "@playwright/test";
import { STACK } from "./stack";

/** What the shop answered a form posted without JavaScript: its status and page. */
export interface FormAnswer {
  status: number;
  html: string;
}

const decodeAttribute = (value: string) =>
  value
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/**
 * Posts one of the page at `path`'s forms as a browser without JavaScript does (progressive
 * enhancement): the form is the first whose markup contains `marker` (`class="add-to-cart"`,
 * `name="password"`), posted multipart with its hidden fields (the framework's action id and
 * state, the shop's own) and `fields` over them, from the shop's origin.
 */
export async function postPageForm(
  shop: APIRequestContext,
  path: string,
  marker: string,
  fields: Record<string, string>,
): Promise<FormAnswer> {
  const page = await (await shop.get(path)).text();
  const form = [...page.matchAll(/<form[\s>][\s\S]*?<\/form>/g)]
    .map((match) => match[0])
    .find((markup) => markup.includes(marker));
  expect(form, `a form with ${marker} on ${path}`).toBeTruthy();
  const multipart: Record<string, string> = {};
  for (const input of form?.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g) ??
    []) {
    multipart[input[1] ?? ""] = decodeAttribute(input[2] ?? "");
  }
  const response = await shop.post(path, {
    headers: { origin: STACK.shopUrl },
    multipart: { ...multipart, ...fields },
  });
  return { status: response.status(), html: await response.text() };
}

/** The first link's target in `html` after `text` (a message the page shows), decoded. */
export function linkAfter(html: string, text: string): string | undefined {
  const at = html.indexOf(text);
  if (at < 0) return undefined;
  const href = html.slice(at).match(/<a href="([^"]*)"/)?.[1];
  return href === undefined ? undefined : decodeAttribute(href);
}
