// What the SDK reports of the shop's callbacks (emulator/README.md, "Go-live readiness"): each
// time it asks the shop (shopper_data, purchase_data) it POSTs the answer, as the browser got it,
// to the service's observations, and the go-live readiness report judges the shop's callbacks by
// those reports. Read here as the shopper's browser sends them and compared with the shop's own
// answer to the same browser, asked the way the SDK asks: both parties' view of one answer, with
// no control API, so this runs against a staging service too.
import type { Page } from "@playwright/test";
import { SHOPPER } from "./fixtures";
import { expect, test } from "./support/fixtures";

type Callback = "shopper_data" | "purchase_data";

/** A callback report, without the observation session's stamp. */
type CallbackReport = {
  kind: "callback";
  callback: Callback;
  status: number;
  content_type: string;
  body_text: string;
};

/** Every callback report the SDK sends from this tab, in order. */
function callbackReports(page: Page): () => CallbackReport[] {
  const seen: CallbackReport[] = [];
  page.on("request", (request) => {
    if (request.method() !== "POST") return;
    if (new URL(request.url()).pathname !== "/sdk/v1/observations") return;
    const body = request.postDataJSON() as Record<string, unknown>;
    if (body.kind !== "callback") return;
    const { merchant_id: _m, token: _t, seq: _s, ...report } = body;
    seen.push(report as CallbackReport);
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

/** The newest report of `callback`, once the browser sent one more than `before`. */
async function reported(reports: () => CallbackReport[], callback: Callback, before: number) {
  const of = () => reports().filter((report) => report.callback === callback);
  await expect
    .poll(() => of().length, { message: `the SDK reported ${callback}` })
    .toBeGreaterThan(before);
  return of().at(-1);
}

const countOf = (reports: () => CallbackReport[], callback: Callback) =>
  reports().filter((report) => report.callback === callback).length;

test("the SDK's report of each of the shop's callbacks, read as the browser sends it, is the shop's own answer to that browser: shopper_data for a guest (404) and for the shopper after logging in (200), purchase_data at the checkout; each with its status, content type and body", async ({
  page,
  sdk,
  shop,
}) => {
  const reports = callbackReports(page);
  await page.goto("/");
  await sdk.ready();
  const guest = await reported(reports, "shopper_data", 0);
  expect(guest?.status).toBe(404);
  expect(guest).toEqual(await shopsAnswer(page, "shopper_data"));

  let before = countOf(reports, "shopper_data");
  await shop.login(SHOPPER);
  await sdk.ready();
  const shopper = await reported(reports, "shopper_data", before);
  expect(shopper?.status).toBe(200);
  expect(shopper).toEqual(await shopsAnswer(page, "shopper_data"));

  await shop.addToCart("aurora-x1");
  before = countOf(reports, "purchase_data");
  await shop.openCheckout();
  await sdk.ready();
  const purchase = await reported(reports, "purchase_data", before);
  expect(purchase?.status).toBe(200);
  expect(purchase).toEqual(await shopsAnswer(page, "purchase_data"));
});
