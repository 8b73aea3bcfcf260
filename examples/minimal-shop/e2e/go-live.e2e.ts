// Go-live scenarios 1-3 of the minimal shop, and the readiness journey (the rules the scenarios
// leave unexercised: token expiry, a 401, a 429's backoff, the raw session declared): the
// emulator tarball's packaged journeys (emulator/README.md, "Go-live journeys"), given this
// shop's steps — as any integrator runs them.
import { defineGoLiveJourneys } from "service-emulator/go-live";
import { CUSTOMER, EMULATOR_URL, identity, MINIMAL_SHOP, SHOP_URL } from "./minimal-shop-steps";

defineGoLiveJourneys({
  shopUrl: SHOP_URL,
  emulatorUrl: EMULATOR_URL,
  customer: CUSTOMER,
  shop: MINIMAL_SHOP,
  isConfirmationPage: (url) => url.pathname === "/checkout/confirmation",
  // The shop's raw identity, from its sealed mini_session cookie (unsealed with the test's secret).
  readiness: { merchantId: "m_demo", rawSession: (page) => identity(page) },
});
