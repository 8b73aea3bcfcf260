// Go-live scenarios 1-3 of the minimal shop: the emulator tarball's packaged journeys
// (emulator/README.md, "Go-live journeys"), given this shop's steps — as any integrator runs them.
import { defineGoLiveJourneys } from "service-emulator/go-live";
import { CUSTOMER, EMULATOR_URL, MINIMAL_SHOP, SHOP_URL } from "./minimal-shop-steps";

defineGoLiveJourneys({
  shopUrl: SHOP_URL,
  emulatorUrl: EMULATOR_URL,
  customer: CUSTOMER,
  shop: MINIMAL_SHOP,
  isConfirmationPage: (url) => url.pathname === "/checkout/confirmation",
});
