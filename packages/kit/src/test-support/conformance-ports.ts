/**
 * Which port of shop-ports.ts each conformance check proves, and who supplies each port: the
 * integration's adapter packages (`@service-integration/drizzle-adapter`,
 * `@service-integration/prisma-adapter`) or the shop. docs/integrating.md's table of the ports is
 * generated from this (scripts/ports-table.ts), so a new check or port cannot be left out of it.
 * No Vitest here: the docs script reads it outside a test run.
 */

export type PortName =
  | "ServicePayStore"
  | "OrderStatusRules"
  | "ServiceOrderStore"
  | "TradeInRegistrationStore"
  | "TokenStore"
  | "SessionIdentity"
  | "ShopperSource"
  | "IntegrationLogStore"
  | "InspectorSource"
  | "ShopRoutes"
  | "CheckoutFormFields";

/** One port of the kit as the integration guide's ports table lists it. */
export interface PortDescription {
  /** The port's interface name, e.g. `ServicePayStore`. */
  port: PortName;
  /** Whether the kit runs without it (a host with no back office, no inspector). */
  required: boolean;
  /** Who supplies it on an adapter package; a host without one writes every port itself. */
  suppliedBy: string;
  /** What it is for, in a few words. */
  for: string;
}

/** Every port of the kit: whether it is required, who supplies it, what it is for (the ports
 *  table of docs/integrating.md is made of it, `npm run docs:figures`). */
export const SHOP_PORTS: readonly PortDescription[] = [
  {
    port: "ServicePayStore",
    required: true,
    suppliedBy: "adapter (the shop's `openCartId` and `createOrder` callbacks run inside it)",
    for: "kept checkouts, pending orders, stored webhook notifications, their one transaction",
  },
  {
    port: "OrderStatusRules",
    required: true,
    suppliedBy: "shop (`statuses` callback; the kit's `orderStatusRules()` builds it from a table)",
    for: "the shop's names for the contract's statuses and the moves between them",
  },
  {
    port: "ServiceOrderStore",
    required: false,
    suppliedBy: "adapter",
    for: "the back office's order updates and reconciliation",
  },
  {
    port: "TradeInRegistrationStore",
    required: true,
    suppliedBy: "adapter",
    for: "register-purchase after a card payment, its retry queue, the trade-in the browser saw",
  },
  {
    port: "TokenStore",
    required: true,
    suppliedBy: "adapter",
    for: "the service's tokens, sealed, and the renewal lease",
  },
  {
    port: "SessionIdentity",
    required: true,
    suppliedBy: "shop (the kit's `createGuestIdentity` beside its auth library)",
    for: "the shopper's session id and salt the session hash is made of",
  },
  {
    port: "ShopperSource",
    required: true,
    suppliedBy:
      "shop (`shopper` callback; its `loadCheckout` and `noteAskedToCollect` by the adapter)",
    for: "the merchant endpoints' customer, open cart and delivery, and what purchase_data asked",
  },
  {
    port: "IntegrationLogStore",
    required: false,
    suppliedBy: "adapter",
    for: "the integration log kept across instances (demo aid)",
  },
  {
    port: "InspectorSource",
    required: false,
    suppliedBy: "adapter",
    for: "the integration inspector's feed (demo aid)",
  },
  {
    port: "ShopRoutes",
    required: true,
    suppliedBy: "shop (configuration; default the kit's `shopRoutes()`)",
    for: "where the shop mounts the callbacks, the confirmation and the checkout routes",
  },
  {
    port: "CheckoutFormFields",
    required: true,
    suppliedBy: "shop (configuration; default the kit's `checkoutFormFields()`)",
    for: "what the shop's checkout form calls its inputs",
  },
];

/** The ports each conformance check proves, by the check's key. */
export const CHECK_PORTS: Readonly<Record<string, readonly PortName[]>> = {
  rollback: ["ServicePayStore"],
  "open-cart-checkout": ["ServicePayStore"],
  "duplicate-notification": ["ServicePayStore"],
  "duplicate-early-notification": ["ServicePayStore"],
  "one-order-per-cart": ["ServicePayStore"],
  "webhook-mode-one-order": ["ServicePayStore", "OrderStatusRules"],
  "unique-service-order": ["ServicePayStore"],
  "stored-batch": ["ServicePayStore"],
  "stored-batch-own-commit": ["ServicePayStore"],
  "early-notification": ["ServicePayStore"],
  "out-of-order": ["ServicePayStore", "OrderStatusRules"],
  "order-update-against-current": ["ServiceOrderStore", "OrderStatusRules"],
  "one-registration-per-order": ["TradeInRegistrationStore"],
  "one-claim-per-attempt": ["TradeInRegistrationStore"],
  "lease-before-claim": ["TradeInRegistrationStore"],
  "retry-job-claims": ["TradeInRegistrationStore"],
  "session-identity": ["SessionIdentity"],
  "shopper-customer": ["ShopperSource"],
  "shopper-open-cart": ["ShopperSource"],
  "shopper-delivery": ["ShopperSource"],
  "shopper-checkout": ["ShopperSource", "ServicePayStore"],
  "drop-checkout": ["ServicePayStore"],
  "resave-checkout": ["ServicePayStore"],
  "asked-amount": ["ShopperSource", "ServicePayStore"],
  "abandoned-orders": ["ServicePayStore"],
  "trade-in-seen": ["TradeInRegistrationStore"],
  "typed-unreachable": ["TradeInRegistrationStore"],
  "tokens-sealed": ["TokenStore"],
  "renewal-lease": ["TokenStore"],
  "one-grant": ["TokenStore"],
};
