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

test("attaching the driver after the page navigated is refused, saying to attach first", async ({
  shop,
  page,
}) => {
  await shop.open();
  await expect(ServiceSdkDriver.attach(page)).rejects.toThrow(
    /after the page navigated .*attach it before the first page.goto/,
  );
});
