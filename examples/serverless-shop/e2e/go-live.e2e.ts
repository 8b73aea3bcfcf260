// Go-live scenarios 1-3 of the serverless shop: the emulator tarball's packaged journeys
// (emulator/README.md, "Go-live journeys"), given this shop's steps.
import { defineGoLiveJourneys } from "service-emulator/go-live";
import { CUSTOMER, EMULATOR_URL, SERVERLESS_SHOP, SHOP_URL } from "./shop-steps";

defineGoLiveJourneys({
  shopUrl: SHOP_URL,
  emulatorUrl: EMULATOR_URL,
  customer: CUSTOMER,
  shop: SERVERLESS_SHOP,
  isConfirmationPage: (url) => url.pathname === "/kasse/bestaetigung",
});
