// The driver of the service SDK's screens is the one the emulator's tarball ships
// (`service-emulator/go-live`, source emulator/go-live/service-sdk-driver.ts): one driver for
// this suite, the minimal shop's journeys and any integrator's. In this repository the package
// name resolves to that source (tsconfig.json "paths"), so this suite needs no build first; the
// minimal shop imports the installed tarball (scripts/minimal-shop.mjs).
export {
  EVERYDAY_DEVICE,
  type PaymentOptionDetails,
  type ServiceEvent,
  ServiceSdkDriver,
  TEST_CATEGORY,
  TEST_DEVICES,
  type TeaserType,
} from "service-emulator/go-live";
