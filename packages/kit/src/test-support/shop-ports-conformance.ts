import { afterAll, beforeAll, describe, it } from "vitest";
import {
  CONCURRENT_COPIES,
  type ConformanceCheck,
  type ConformanceHost,
  type MakeConformanceHost,
} from "./conformance-host.js";
import { askedAmount, dropCheckout, resaveCheckout } from "./conformance-kept-checkout.js";
import { orderUpdateAgainstCurrent } from "./conformance-order-store.js";
import { CHECK_PORTS, type PortName } from "./conformance-ports.js";
import {
  abandonedOrdersPruned,
  duplicateEarlyNotifications,
  duplicateNotifications,
  earlyNotificationApplied,
  onePendingOrderPerCart,
  openCartCheckoutRead,
  outOfOrderNotifications,
  rollsBackWhole,
  uniqueServiceOrderId,
  webhookModeMakesOneOrder,
} from "./conformance-service-pay.js";
import {
  sessionIdentityRead,
  shopperCheckout,
  shopperCustomer,
  shopperDelivery,
  shopperOpenCart,
} from "./conformance-shopper.js";
import {
  storedBatchCommitsOnItsOwn,
  storedBatchKeepsValues,
} from "./conformance-stored-notifications.js";
import { oneGrantForManyRenewers, renewalLease, tokensSealed } from "./conformance-tokens.js";
import {
  leaseBeforeClaim,
  oneClaimPerAttempt,
  oneRegistrationPerOrder,
  retryRunnersClaimOnce,
  tradeInSeen,
  typedUnreachable,
} from "./conformance-trade-ins.js";

export * from "./conformance-host.js";

/** The suite's checks, each with its own host from `makeHost`. */
export function shopPortsConformanceChecks(makeHost: MakeConformanceHost): ConformanceCheck[] {
  const check = (key: string, name: string, body: (host: ConformanceHost) => Promise<void>) => ({
    key,
    name,
    ports: portsOf(key),
    run: async () => {
      const host = await makeHost();
      try {
        await body(host);
      } finally {
        await host.close?.();
      }
    },
  });
  return [
    check(
      "rollback",
      "a Service Pay transaction that throws midway rolls back whole: nothing of it is visible afterwards",
      rollsBackWhole,
    ),
    check(
      "open-cart-checkout",
      "the details kept for a session's open cart are read in one call by loadCheckout's rules: none before they are kept, none for another session's cart, none once the cart is an order",
      openCartCheckoutRead,
    ),
    check(
      "duplicate-notification",
      `the same notification delivered ${CONCURRENT_COPIES} times at once is stored and applied once (unique dedupe key)`,
      duplicateNotifications,
    ),
    check(
      "duplicate-early-notification",
      `the same early notification delivered ${CONCURRENT_COPIES} times at once waits once and is applied once when its order is created`,
      duplicateEarlyNotifications,
    ),
    check(
      "one-order-per-cart",
      `${CONCURRENT_COPIES} ready-to-place-order calls at once for one cart make one order (unique Order.cartId and kept checkout's cart id)`,
      onePendingOrderPerCart,
    ),
    check(
      "webhook-mode-one-order",
      `webhook mode: the paid notification delivered ${CONCURRENT_COPIES} times at once makes one order, paid once`,
      webhookModeMakesOneOrder,
    ),
    check(
      "unique-service-order",
      "tying a second order to a service order another order holds throws ConcurrentWriteError and writes nothing (unique Order.serviceOrderId)",
      uniqueServiceOrderId,
    ),
    check(
      "stored-batch",
      "a batch of notifications is stored as it came: nulls, integer cents, quotes, unicode and emoji, a 64 KB body read back exactly, the first copy of a key in the batch kept and a key stored before not stored again, oldest first in the batch's order",
      storedBatchKeepsValues,
    ),
    check(
      "stored-batch-own-commit",
      "a batch of notifications stored while another transaction of the store is open is committed on its own: that transaction's rollback leaves it stored",
      storedBatchCommitsOnItsOwn,
    ),
    check(
      "early-notification",
      "a notification that arrives before its order is kept and applied when the order is created",
      earlyNotificationApplied,
    ),
    check(
      "out-of-order",
      "out-of-order notifications (completed before payment_completed), one after the other or at once, end on completed",
      outOfOrderNotifications,
    ),
    check(
      "order-update-against-current",
      "an order update written after a notification moved the order is written against the order as it is now: a status it can no longer take is dropped",
      orderUpdateAgainstCurrent,
    ),
    check(
      "one-registration-per-order",
      `the card order's trade-in step run ${CONCURRENT_COPIES} times at once writes one registration and registers once (unique TradeInRegistration.orderId)`,
      oneRegistrationPerOrder,
    ),
    check(
      "one-claim-per-attempt",
      `a registration attempt is claimed by exactly one of ${CONCURRENT_COPIES} claimers (compare-and-set)`,
      oneClaimPerAttempt,
    ),
    check(
      "lease-before-claim",
      "a row the retry job leased between its insert and its creator's claim is not attempted again while the creator's attempt runs (the lease's attempts)",
      leaseBeforeClaim,
    ),
    check(
      "retry-job-claims",
      "the retry job's runners at once claim each due registration once, and none that is not due",
      retryRunnersClaimOnce,
    ),
    check(
      "session-identity",
      "SessionIdentity.ofRequest gives null without the shopper's cookie, and with it the identity the host issued (the customer too), the same on every read",
      sessionIdentityRead,
    ),
    check(
      "shopper-customer",
      "ShopperSource.customer gives a known customer's fields and null for an unknown one",
      shopperCustomer,
    ),
    check(
      "shopper-open-cart",
      "ShopperSource.openCart gives the session's open cart (its id, currency and lines in integer cents, owing what its order owes) and null for an unknown session or a cart that became an order",
      shopperOpenCart,
    ),
    check(
      "shopper-delivery",
      "ShopperSource.shippingMethod gives the delivery the order charges, in the cart's currency, and knows the defaultShippingMethod",
      shopperDelivery,
    ),
    check(
      "shopper-checkout",
      "ShopperSource.loadCheckout agrees with the Service Pay store's loadCheckout",
      shopperCheckout,
    ),
    check(
      "drop-checkout",
      "dropCheckout forgets the kept details (no payment open any more), and dropping what is not kept is harmless",
      dropCheckout,
    ),
    check(
      "resave-checkout",
      "a re-save of the kept checkout refreshes its keptAt, keeps the valuation when the re-save omits it and replaces it when given",
      resaveCheckout,
    ),
    check(
      "asked-amount",
      "a pending order is made only when it owes what purchase_data answered while the payment was open (noteAskedToCollect, kept with the checkout): another amount or currency, or nothing asked, is refused with nothing written; a new payment start forgets it",
      askedAmount,
    ),
    check(
      "abandoned-orders",
      "the sweep drops a guest's pending Service Pay order that no notification named once it is older than the modal's lifetime plus the margin (abandonedOrders, dropOrder: the order, its history and kept checkout), keeps a customer's, a named one and a young one, and a paid notification arriving after waits unmatched",
      abandonedOrdersPruned,
    ),
    check(
      "trade-in-seen",
      "tradeInSeen gives the trade-in recorded for the session, only for that session, and null for an unknown one; carryTradeInSeen gives it to the session a sign-in made",
      tradeInSeen,
    ),
    check(
      "typed-unreachable",
      "unreachableSince counts a registration finished unreachable since then, by its own field: a lastError that reads like a network failure does not count",
      typedUnreachable,
    ),
    check(
      "tokens-sealed",
      "the token store persists the tokens sealed: no raw access token, refresh token or user id in what it stores",
      tokensSealed,
    ),
    check(
      "renewal-lease",
      `the renewal lease goes to exactly one of ${CONCURRENT_COPIES} holders; its holder may retake it, others only once released or expired`,
      renewalLease,
    ),
    check(
      "one-grant",
      "an expired token noticed by 20 token managers at once costs one grant; all share its token",
      oneGrantForManyRenewers,
    ),
  ];
}

function portsOf(key: string): readonly PortName[] {
  const ports = CHECK_PORTS[key];
  // A check must say which port it proves: docs/integrating.md's table of the ports is made of it.
  if (!ports) throw new Error(`conformance check "${key}" names no port (conformance-ports.ts)`);
  return ports;
}

/** Registers each check as a Vitest test, in one `describe`; a host factory's shared database
 *  (oneDatabasePerSuite's `open` and `dispose`) is made before the first check, outside the
 *  checks' time limits, and removed after the last. */
export function runShopPortsConformance(
  makeHost: MakeConformanceHost & { open?(): Promise<void>; dispose?(): Promise<void> },
  label = "host",
  options: { skip?: string[] } = {},
): void {
  describe(`shop-ports conformance (${label})`, () => {
    beforeAll(() => makeHost.open?.());
    afterAll(() => makeHost.dispose?.());
    for (const { key, name, run } of shopPortsConformanceChecks(makeHost)) {
      if (options.skip?.includes(key)) it.skip(name, run);
      else it(name, run);
    }
  });
}
