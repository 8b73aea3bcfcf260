// The go-live package's driver fails fast with a reason (emulator/README.md, "Go-live journeys"):
// a journey that cannot proceed says what to change within seconds, instead of waiting out the
// test's whole timeout on a screen that will not come.
import { ServiceSdkDriver } from "../go-live/service-sdk-driver";
import { expect, test } from "./fixtures";

// Seconds, not the suite's 30 s: a failure that waits out a timeout is what these guard against.
test.setTimeout(10_000);

test("a guest's valuation stops at the login prompt, saying to sign a customer in", async ({
  shop,
  page,
}) => {
  const sdk = await ServiceSdkDriver.attach(page);
  await shop.setState({ customer: null });
  await shop.open();
  await sdk.openWizardFromTeaser("banner");
  await expect(sdk.valueDevice("Phones", "Aurora 15")).rejects.toThrow(
    /asks this shopper to log in.*give the go-live journeys `customer` and `shop.signIn`/,
  );
});

test("waiting for the SDK on a page loaded before the driver was attached fails at once, saying to attach first", async ({
  page,
}) => {
  // A page of the emulator's own that loaded before attach: it records no SDK events.
  await page.goto("/__emulator/health");
  const sdk = await ServiceSdkDriver.attach(page);
  await expect(sdk.ready()).rejects.toThrow(
    /records no SDK events: it loaded before ServiceSdkDriver.attach\(page\)\. Attach before the first page.goto/,
  );
});
