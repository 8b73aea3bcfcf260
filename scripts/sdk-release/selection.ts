// The staging selection: the tests a release run makes without the bundled emulator
// (`--no-emulator`, a staging service), and the subset the mutation run (./mutants.ts) measures
// that seat with. One definition, so the two cannot drift apart.
import type { ReleaseOptions } from "./run";

/**
 * The storefront suite, every test, with SERVICE_FIXTURE=none: the fixtures skip, each with its
 * reason, the tests that need the service's control API, its magic test devices, or what such a
 * test left behind (e2e/support/service-fixture.ts). No title filter: a tag is not what skips.
 * The SDK page suite is not in it: its test page is the bundled emulator's own.
 */
export const STAGING_SELECTION = {
  suites: ["storefront"],
  withoutServiceFixture: true,
} as const satisfies Partial<ReleaseOptions>;
