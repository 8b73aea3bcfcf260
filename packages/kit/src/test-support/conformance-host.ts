// The conformance suite's host interface (what a host hands the checks) and its constants.
import type {
  CheckoutDetails,
  OrderStatusRules,
  ServiceOrderStore,
  ServicePayStore,
  SessionIdentity,
  ShopCustomer,
  ShopperIdentity,
  ShopperSource,
  TokenStore,
  TradeInRegistrationStore,
} from "../shop-ports.js";
import type { PortName } from "./conformance-ports.js";

/**
 * The shop-ports conformance suite: what a host's implementation of packages/kit/src/shop-ports.ts
 * must guarantee beyond its types (the unique keys, the one transaction, the locks and leases
 * its comments name), checked through the kit's own functions over the host's ports, so it
 * tests the host and not a copy of the logic. Run it with Vitest from the host's test file:
 *
 *   runShopPortsConformance(makeHost);
 *
 * or take the plain checks (shopPortsConformanceChecks) and run them however you like: each
 * throws on failure. Every check makes its own host with `makeHost` and closes it afterwards.
 * docs/integrating.md, "Prove your adapter: the conformance suite".
 */

/** An open cart the host seeded for the checks (ConformanceHost.seedOpenCart). */
export interface SeededCart {
  /** A new session id whose open cart (ServicePayTx.openCartId) holds at least one line. */
  sessionId: string;
  /** Checkout details the host accepts for that cart (its own delivery method id). */
  details: CheckoutDetails;
  /** What the order made of this cart owes before the trade-in, in cents: items, tax and the
   *  delivery of `details.shippingMethod` (order-webhook.ts, totalBeforeTradeIn). The checks'
   *  payment notifications carry it as `amount`, so they match the order. */
  owes: number;
  /** The cart's currency. */
  currency: string;
}

/** A shopper session the host issued (ConformanceHost.issueSession). */
export interface IssuedSession {
  /** The Cookie request header the shopper's browser sends with it (`name=value`, as the host's
   *  own session code sets it). */
  cookie: string;
  /** The identity the host put in that session: SessionIdentity.ofRequest must give exactly it. */
  identity: ShopperIdentity;
}

/**
 * A fresh, empty host: the ports under test, and the seeding hooks the ports cannot do for
 * themselves. Everything else the checks need they make through the kit.
 */
export interface ConformanceHost {
  /** The Service Pay store (kept checkouts, pending orders, notifications) under test. */
  servicePay: ServicePayStore;
  /** The host's order statuses, as its webhook uses them. */
  statuses: OrderStatusRules;
  /** The back office's order store (order updates, reconciliation). A host that sends no order
   *  updates (no back office) leaves it out and runs the suite with
   *  `{ skip: ["order-update-against-current"] }`: that check is then reported as skipped. */
  orders?: ServiceOrderStore;
  /** The register-purchase store; its rows belong to orders the checks create from seeded carts. */
  tradeIns: TradeInRegistrationStore;
  /** The token store, empty. */
  tokens: TokenStore;
  /** The host's session identity (what the merchant callbacks and the card step read). */
  identity: SessionIdentity;
  /** The merchant endpoints' view of the shop (customers, open carts, delivery, kept details). */
  shopper: ShopperSource;
  /** Seeds a new session with an open cart of at least one line (once per call, never shared). */
  seedOpenCart(): Promise<SeededCart>;
  /** Issues a new shopper session as the host's own code does (first visit; with `customerId`,
   *  signed in as that customer), never shared. */
  issueSession(customerId?: string): Promise<IssuedSession>;
  /** Seeds a new customer (never shared) and gives it as ShopperSource.customer must. */
  seedCustomer(): Promise<ShopCustomer>;
  /** Records that this session's browser saw `tradeInId` accepted, the way the host does it
   *  (this shop: POST /api/service/trade-in-seen). A host that keeps none (tradeInSeen always
   *  null) leaves it out and runs the suite with `{ skip: ["trade-in-seen"] }`. */
  recordTradeInSeen?(sessionId: string, tradeInId: string): Promise<void>;
  /** Everything the token store has persisted, as text (rows, documents, files): the sealing
   *  check looks for the raw tokens in it. */
  persistedTokenText(): Promise<string>;
  /** Frees what the host holds (its database); called once when a check ends. */
  close?(): Promise<void>;
}

/** Makes the host one check runs on (freshDatabasePerCheck: a new database each time). */
export type MakeConformanceHost = () => Promise<ConformanceHost>;

/** One check of the conformance suite: a guarantee of some ports, and what proves it. */
export interface ConformanceCheck {
  /** A short stable id (e.g. to skip or pick a check). */
  key: string;
  /** The guarantee, in words. */
  name: string;
  /** The ports whose guarantee it proves (conformance-ports.ts). */
  ports: readonly PortName[];
  /** Runs the check on a host of its own; rejects when the guarantee does not hold. */
  run: () => Promise<void>;
}

/** How many copies of one call the duplicate checks send at once: twice the largest connection
 *  pool of the adapters' drivers (10), so every connection races and some calls queue behind
 *  them. More copies add no concurrency a pool allows, only time: 50 took up to 5 s on
 *  PostgreSQL on one loaded core, past Vitest's default limit. */
export const CONCURRENT_COPIES = 20;

/** The shop's public address the checks pass to the callbacks (purchase data's links). */
export const SHOP_BASE_URL = "http://shop.test";
/** The checks' clock for the trade-in steps (never the wall clock: no waiting on real time). */
export const NOW = new Date("2030-01-01T12:00:00.000Z");
/** An hour after NOW (a valuation still valid, a retry due). */
export const LATER = new Date(NOW.getTime() + 60 * 60 * 1000);
