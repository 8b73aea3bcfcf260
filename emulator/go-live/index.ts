// `service-emulator/go-live`: the go-live journeys an integrator runs against their own shop, and
// the driver of the service SDK's screens they use (emulator/README.md, "Go-live journeys").
// Built to dist/go-live/ by emulator/scripts/build.mjs; @playwright/test is a peer dependency.

export {
  cardTradeInDisagreements,
  centsFromText,
  plainPurchaseDisagreements,
  type RegisterPurchaseReceipt,
  type ServiceOrder,
  type ShownAmounts,
  type StoredOrder,
  servicePayDisagreements,
} from "./compare.js";
export { EmulatorControl, type JournalEntry, type ReadinessVerdict } from "./control.js";
export {
  type Customer,
  defineGoLiveJourneys,
  GO_LIVE_SCENARIOS,
  type GoLiveContext,
  type GoLiveOptions,
  type GoLiveShop,
  READINESS_JOURNEY,
  READINESS_RULES,
  type ReadinessOptions,
  type ShopStep,
} from "./journeys.js";
export * from "./service-sdk-driver.js";
