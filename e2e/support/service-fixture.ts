// What the tests need from the SERVICE side beyond what a shopper can do in the browser: create a
// valuation without the wizard, move the service's clock, and read what the service received.
// The bundled emulator's control API is one implementation (./emulator.ts). A staging service
// has none (yet): run the suite with SERVICE_FIXTURE=none and every journey that needs one is
// reported as SKIPPED with the reason below, never silently left out (e2e/README.md, "Another
// SDK build or service").
import type { TestInfo } from "@playwright/test";
import {
  type EmulatorOrder,
  emulator,
  type JournalEntry,
  type PurchaseReceipt,
  type TradeInRequest,
  type WebhookDeliveryFault,
  type WebhookNotification,
} from "./emulator";

export interface ServiceFixture {
  /** Back to a known state before and after a test. */
  reset(): Promise<unknown>;
  /** An accepted valuation for a session hash, as if the shopper had used the wizard. */
  createValuation(
    request: TradeInRequest,
  ): Promise<{ id: string; value: number; currency: string }>;
  /** Moves the service's clock (valuation validity, token lifetime, webhook retries). */
  advanceTime(by: { seconds?: number; minutes?: number; hours?: number }): Promise<unknown>;
  /** Stops the service's clock: nothing expires or retries by itself, only advanceTime moves it. */
  stopClock(): Promise<unknown>;
  /** The service's next scheduled webhook deliveries fail, one per fault, in order. */
  failWebhookDeliveries(faults: WebhookDeliveryFault[]): Promise<unknown>;
  /** Every register-purchase the service received, duplicates included. */
  registerPurchases(): Promise<PurchaseReceipt[]>;
  /** The orders the service holds. */
  orders(): Promise<EmulatorOrder[]>;
  /** Every request the service received and every webhook it sent. */
  journal(): Promise<JournalEntry[]>;
  /** The order notifications (webhooks) with their delivery attempts. */
  webhooks(): Promise<WebhookNotification[]>;
}

/** The emulator's control API as a ServiceFixture. */
export const emulatorServiceFixture: ServiceFixture = {
  reset: emulator.reset,
  createValuation: emulator.createTradeIn,
  advanceTime: emulator.advanceClock,
  stopClock: emulator.freezeClock,
  failWebhookDeliveries: emulator.failWebhookDeliveries,
  registerPurchases: emulator.registerPurchases,
  orders: emulator.orders,
  journal: emulator.journal,
  webhooks: emulator.webhooks,
};

/** `SERVICE_FIXTURE=none`: the service under test offers no fixture (a staging service). */
export const NO_SERVICE_FIXTURE_REASON =
  "needs a service fixture (create a valuation, advance time, read what the service received, " +
  "inject faults): SERVICE_FIXTURE=none, the service under test has no control API";

export function serviceFixtureAvailable(): boolean {
  return (process.env.SERVICE_FIXTURE ?? "emulator") !== "none";
}

/** The bundled emulator's magic test devices (emulator/README.md) are a test fixture of the
 *  service, not its catalog: a staging service behaves as production does (Contract, overview
 *  rule 6), so it has none. */
export const NO_TEST_DEVICES_REASON =
  "values a magic test device (an offer in another currency, a small, large or expiring offer): " +
  "SERVICE_FIXTURE=none, the service under test has no test devices";

/** Skips the running test, with the reason in the report, when no service fixture exists. */
export function skipWithoutServiceFixture(
  testInfo: TestInfo,
  reason: string = NO_SERVICE_FIXTURE_REASON,
): void {
  testInfo.skip(!serviceFixtureAvailable(), reason);
}

/**
 * A test that reads what earlier tests of its (serial) file left behind is skipped with them when
 * they were skipped for want of a service fixture: Playwright runs it anyway, and it would fail
 * on state that was never made.
 */
export function skipWithPrerequisites(testInfo: TestInfo, prerequisites: string): void {
  skipWithoutServiceFixture(
    testInfo,
    `reads what ${prerequisites} left behind, skipped with them: ${NO_SERVICE_FIXTURE_REASON}`,
  );
}
