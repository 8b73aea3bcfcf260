// What the SDK reports of the shop's callbacks (emulator/README.md, "Go-live readiness"): each
// time it asks the shop (shopper_data, purchase_data) it POSTs the answer, as the browser got it,
// to the service's observations, and the go-live readiness report judges the shop's callbacks by
// those reports. Read here as the shopper's browser sends them and compared with the shop's own
// answer to the same browser, asked the way the SDK asks: both parties' view of one answer, with
// no control API, so this runs against a staging service too.
import type { Page } from "@playwright/test";
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";
import { sdkObservation } from "./support/sdk-observations";

type Callback = "shopper_data" | "purchase_data";

/** A callback report, without the observation session's stamp. */
type CallbackReport = {
  kind: "callback";
  callback: Callback;
  status: number;
  content_type: string;
  body_text: string;
};

/**
 * Every callback report the SDK sends from this tab, in order, each with the path of the page that
 * sent it. Every page the SDK starts on asks shopper_data and reports it, so a tab's reports mix
 * pages: the login page reports the guest's 404 while the shopper types, and that report can reach
 * the service after the page behind the login has loaded. The frame's URL when the browser sends a
 * report is the page sending it (the next page's navigation commits after the report is sent).
 */
function callbackReports(page: Page): () => { from: string; report: CallbackReport }[] {
  const seen: { from: string; report: CallbackReport }[] = [];
  page.on("request", (request) => {
    const report = sdkObservation<CallbackReport>(request, "callback");
    if (report) seen.push({ from: new URL(request.frame().url()).pathname, report });
  });
  return () => seen;
}

/** The shop's answer to this browser, asked as the SDK asks (emulator/sdk/api.ts), as a report. */
function shopsAnswer(page: Page, callback: Callback): Promise<CallbackReport> {
  return page.evaluate(async (name) => {
    const response = await fetch(`/api/service/${name}`, {
      credentials: "same-origin",
      headers: { accept: "application/json" },
      cache: "no-store",
    });
    return {
      kind: "callback" as const,
      callback: name,
      status: response.status,
      content_type: response.headers.get("content-type") ?? "",
      body_text: await response.text(),
    };
  }, callback);
}

/**
 * The report of `callback` sent by the page the shopper is on now (each page of this journey is
 * opened once), once the browser sent it.
 */
async function reportedHere(
  page: Page,
  reports: ReturnType<typeof callbackReports>,
  callback: Callback,
) {
  const here = new URL(page.url()).pathname;
  const of = () =>
    reports()
      .filter(({ from, report }) => from === here && report.callback === callback)
      .map(({ report }) => report);
  await expect
    .poll(() => of().length, { message: `the SDK on ${here} reported ${callback}` })
    .toBeGreaterThan(0);
  return of().at(-1);
}

test("the SDK's report of each of the shop's callbacks, read as the browser sends it, is the shop's own answer to that browser: shopper_data for a guest (404) and for the shopper after logging in (200), purchase_data at the checkout; each with its status, content type and body", async ({
  page,
  sdk,
  shop,
}) => {
  const reports = callbackReports(page);
  await page.goto("/");
  await sdk.ready();
  const guest = await reportedHere(page, reports, "shopper_data");
  expect(guest?.status).toBe(404);
  expect(guest).toEqual(await shopsAnswer(page, "shopper_data"));

  await shop.login(SHOPPER);
  await sdk.ready();
  expect(
    new URL(page.url()).pathname,
    "the page behind the login is one not opened before",
  ).not.toBe("/");
  const shopper = await reportedHere(page, reports, "shopper_data");
  expect(shopper?.status).toBe(200);
  expect(shopper).toEqual(await shopsAnswer(page, "shopper_data"));

  await shop.addToCart("aurora-x1");
  await shop.openCheckout();
  await sdk.ready();
  const purchase = await reportedHere(page, reports, "purchase_data");
  expect(purchase?.status).toBe(200);
  expect(purchase).toEqual(await shopsAnswer(page, "purchase_data"));
});
