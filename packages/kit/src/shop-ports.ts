import type { Address, DeliveryCharge, Discount, ShopOrderItem } from "./cart.js";
import type { ServiceOrderStatus, UpdateType } from "./resources.js";
import type { OrderNotification } from "./webhook-payload.js";

/**
 * Everything the kit needs from a shop, and nothing else: the integration imports no shop
 * code, so an integrator installs the package and implements these interfaces once, in one
 * adapter folder (this shop: lib/service-adapter/, plain Prisma). Each interface is small and
 * named after the contract concern that needs it. Money is integer cents (contract: Limits).
 *
 * The idempotency rests on unique keys the HOST's database must enforce (a check in code races
 * between server instances); each method that relies on one says so below ("Unique key:"):
 * - `Order.cartId`: one order per cart (the checkout's cart id, the id the service knows the
 *   purchase by);
 * - `Order.serviceOrderId`: one order per service order;
 * - the notification's dedupe key (webhook-payload.ts, `dedupeKey`): one stored notification
 *   per delivery;
 * - the kept checkout's cart id: one set of checkout details per cart;
 * - `TradeInRegistration.orderId`: one register-purchase per card order.
 * Isolation: the database's default (PostgreSQL READ COMMITTED; SQLite's one writer) is enough
 * where the method says how it locks; nothing here needs SERIALIZABLE
 * (docs/decisions/concurrent-order-changes.md).
 */

// ---------------------------------------------------------------------------------------------
// Session identity (contract: Resources › Session hash, Authentication 6–7)

/**
 * The current shopper as the service knows them: the contract's "session identifier" and the
 * per-session salt the session hash is made of (HMAC-SHA256(salt, sessionId), session-hash.ts),
 * and the signed-in customer, if any. Raw id and salt stay on the server (Authentication 6).
 */
export interface ShopperIdentity {
  /** The raw session identifier (never sent to the service). */
  sessionId: string;
  /** The per-session random salt, the HMAC key of the session hash. */
  salt: string;
  /** The signed-in customer's id in the shop; absent for a guest. */
  customerId?: string | undefined;
}

/**
 * Where the kit reads the current shopper's identity (this shop: the sealed session cookie,
 * docs/decisions/session-identity.md). What the service relies on, and the host's session must
 * give:
 * - What a guest had before sign-in stays theirs after it: either `sessionId` and `salt` survive
 *   sign-in (this shop: its cookie's token is rotated and revoked, the id kept), or the sign-in
 *   gives a new id and salt and the host carries what the shop keyed by the old id to the new
 *   one: the cart, and the seen trade-in (`TradeInRegistrationStore.carryTradeInSeen`). The
 *   kit's guest identity does the second (`GuestIdentity.signIn` hands over `carried`), so a
 *   cookie copied before sign-in opens nothing after it. Over another customer's session,
 *   nothing is kept or carried.
 * - Both are REPLACED AT SIGN-OUT (and wherever the host ends a session): otherwise the next
 *   person at that browser is handed the previous shopper's trade-in, cart and checkout.
 * - One identity per browser session, never shared: the shop keys carts, kept checkout details
 *   and the seen trade-in by `sessionId`, and the service keys the trade-in by its hash.
 * - Reading is read-only: it never creates, renews or writes a session (the callbacks answer the
 *   SDK's calls with the shopper's own cookie, Authentication 7; a request without one is
 *   anonymous: null).
 */
export interface SessionIdentity {
  /** The identity of the shopper who sent `request` (their own session cookie), or null. */
  ofRequest(request: Request): Promise<ShopperIdentity | null>;
}

// ---------------------------------------------------------------------------------------------
// Tokens (contract: Authentication 1–4)

/** The service's tokens as the shop keeps them (TokenStore; sealed at rest by the adapter). */
export interface StoredTokens {
  /** The bearer token of the API calls (contract: Token response `access_token`). */
  accessToken: string;
  /** What renews it with grant_type=refresh_token (`refresh_token`). */
  refreshToken: string;
  /** From the token response; half of the webhook secret (contract: Authentication 5). */
  userId: string;
  /** From the token response; the other half, and the SDK's merchantId. */
  merchantId: string;
  /** Space-separated scopes granted (or requested, when the answer does not say). */
  scope: string;
  /** When the access token stops working, computed by us at issue time. */
  accessExpiresAt: Date;
}

/**
 * Where the OAuth tokens live. A store, not memory: the contract keeps a client-side expiry, and
 * the service's own server SDK keeps tokens in the merchant's database (public docs, Credentials)
 * so several server instances share one login instead of each rotating the refresh token.
 */
export interface TokenStore {
  /** The tokens saved last, or null before the first grant. */
  load(): Promise<StoredTokens | null>;
  /** Replaces the kept tokens (after a grant or a refresh). */
  save(tokens: StoredTokens): Promise<void>;
  /**
   * Takes the one renewal lease shared by every server instance for `ttlMs`, unless another
   * holder has it and it has not expired: true when `holder` now holds it. The token manager
   * renews only under it, so a token expiry that several instances notice at once costs one
   * grant, and the others reuse what the holder saved. A holder that dies loses it at expiry.
   */
  acquireRenewalLease(holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease back early (only if `holder` still holds it). */
  releaseRenewalLease(holder: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Orders as the integration sees them

/**
 * The shopper's accepted valuation as the service showed it when the Service Pay payment started
 * (docs/decisions/payment-matching.md), kept with the checkout and copied onto its order, so the
 * paid notification's trade-in discount is checked against it (accepted-valuation.ts).
 * `valuationState`: "known" (`valuationValue` in cents and `valuationCurrency` set), "none" (no
 * accepted trade-in), "unknown" (not confirmed), or null (never looked up: card orders, details
 * kept before the check existed; read as unknown). `valuationNote` says what was found or why not.
 */
export interface AcceptedValuation {
  /** "known", "none", "unknown", or null when never looked up (above). */
  valuationState: string | null;
  /** The accepted trade-in item's id when known, else null. */
  valuationItemId: string | null;
  /** The accepted offer, integer cents, when "known"; else null. */
  valuationValue: number | null;
  /** The offer's currency (ISO 4217) when "known"; else null. */
  valuationCurrency: string | null;
  /** Why the valuation is "unknown" or "none", in words; null when known or never looked up. */
  valuationNote: string | null;
}

/** A shop order, as far as the integration reads it. */
export interface ShopOrder extends AcceptedValuation {
  /** The order's id in the shop's database. */
  id: string;
  /** The number shown to shoppers; register-purchase sends it as `order_id`. */
  number: string;
  /** The cart the order was made from: the id the service knows the purchase by. */
  cartId: string;
  /** Raw session id: server-side only. */
  sessionId: string;
  /** The signed-in customer's id in the shop, or null for a guest order. */
  customerId: string | null;
  /** The shop's status; may be a status the service sent that the shop does not know. */
  status: string;
  /** The service's order id, once a notification named it. */
  serviceOrderId: string | null;
  /** How it is paid: `service_pay` (through the service), or the shop's own method (e.g. card). */
  paymentMethod: string;
  /** The order's currency code (ISO 4217), the cart's. */
  currency: string;
  /** Items before tax (cents). */
  price: number;
  /** The items' tax, integer cents. */
  tax: number;
  /** The delivery's price, integer cents. */
  shippingPrice: number;
  /** The cart-level discounts' sum (contract: Discount; promotion codes), fixed at creation. */
  discountTotal: number;
  /** What the trade-in took off, integer cents: the paid notification's `trade_in_discount`
   *  (Service Pay); 0 otherwise (a card order's trade-in is paid out by the service). */
  tradeInDiscount: number;
  /** What the order owes: price + tax + shipping − discountTotal − trade-in discount
   *  (cart.ts orderTotal, the one formula). */
  total: number;
  /** Card orders with a trade-in: registered | queued | not_applied | null. */
  tradeInStatus: string | null;
  /** What happened to the card order's trade-in, in words for the shop's staff; else null. */
  tradeInMessage: string | null;
}

/** A placed order with what its contract Cart is built from: its lines, the delivery it
 *  charged (`delivery.price` equals the order's `shippingPrice`) and its cart-level discounts
 *  (their totals sum to the order's `discountTotal`; none: an empty array or omitted). */
export type PlacedOrder = ShopOrder & {
  /** The order's lines as placed (unit price and tax in integer cents). */
  items: ShopOrderItem[];
  /** The delivery it charged. */
  delivery: DeliveryCharge;
  /** Its cart-level discounts (contract: Discount); omitted or empty when none. */
  discounts?: Discount[];
};

/** Who changed an order, for its history. */
export type StatusSource = "shop" | "admin" | "service";

/**
 * One change of an order, recorded in its history in the same write. `to` omitted: the status
 * stays (the history still says what happened, e.g. an update the service refused).
 */
export interface OrderChange {
  /** The shop's status the order moves to; omitted: it stays. */
  to?: string;
  /** Who made the change. */
  source: StatusSource;
  /** What happened, in words, for the order's history. */
  note: string;
  /** The service's order id to record (the first notification that names it). */
  serviceOrderId?: string;
  /** The trade-in discount to record, integer cents (a paid notification's). */
  tradeInDiscount?: number;
  /** A card order's trade-in registration status to record (registered, queued, …). */
  tradeInStatus?: string;
  /** Its message for the shop's staff; null clears it. */
  tradeInMessage?: string | null;
}

/**
 * The shop's order statuses (contract, Order status: "Transitions: not shown"). The kit names
 * none of them: it writes into an order only statuses it got from here, so a host whose orders
 * say `awaiting_payment`, `paid` or `dispatched` gets its own names written.
 */
export interface OrderStatusRules {
  /**
   * The host status each of the contract's order statuses means (Resources › Order: `pending`,
   * `payment_completed`, `completed`). A notification's status is written as this; `pending` is
   * also the status judged from when an order has no status the host knows.
   */
  forServiceStatus: Readonly<Record<ServiceOrderStatus, string>>;
  /**
   * The host status an accepted order update of each type moves the order to (contract:
   * Endpoints › POST /payments/orders/update), or null to keep the status (e.g. `cart_update`).
   * Written only when canTransition allows it from the order's status.
   */
  afterUpdate: Readonly<Record<UpdateType, string | null>>;
  /** Whether the shop knows this status. */
  isKnown(status: string): boolean;
  /** Whether `to` lies ahead of `from` by the shop's transitions. */
  canReach(from: string, to: string): boolean;
  /** Whether the shop allows `from` → `to` in one step (an accepted order update). */
  canTransition(from: string, to: string): boolean;
  /** Whether the payment is known and matched in this status (not pending, held or cancelled). */
  isPaidOrLater(status: string): boolean;
  /** The status an order is held in for a person when a payment does not match it. */
  held: string;
}

// ---------------------------------------------------------------------------------------------
// Service Pay: kept checkout details, pending orders, order notifications (contract: Events)

/** What the checkout form holds when the shopper pays with the service. */
export interface CheckoutDetails {
  /** The shopper's e-mail. */
  email: string;
  /** The billing party's address (contract: Address). */
  billing: Address;
  /** The delivery address (contract: Address); the billing one when the shopper said so. */
  shipping: Address;
  /** The shop's delivery method id. */
  shippingMethod: string;
}

/**
 * What the service was asked to collect for a cart: the contract Cart's `total` and `currency`
 * that purchase_data answered while the cart's payment was open (contract: Merchant endpoints,
 * purchase_data "called fresh each time the payment modal opens"; the SDK collects from it).
 */
export interface AskedAmount {
  /** Cents: the Cart's `total` (before the trade-in, which the service takes off). */
  amount: number;
  /** The Cart's `currency` (contract: Cart), the code `amount` is in. */
  currency: string;
}

/** Checkout details kept for one cart when payment starts, with the accepted valuation then. */
export interface KeptCheckout extends AcceptedValuation {
  /** The checkout's cart id (the key: one set of details per cart). */
  cartId: string;
  /** The shopper's raw session id. */
  sessionId: string;
  /** The signed-in customer's id, or null for a guest. */
  customerId: string | null;
  /** What the checkout form held. */
  details: CheckoutDetails;
  /** When they were kept (the payment's start). */
  keptAt: Date;
  /** What purchase_data last answered for the cart while its payment was open; null: nothing
   *  since the payment started (ShopperSource.noteAskedToCollect). */
  asked: AskedAmount | null;
}

/** How an order notification ended (stored with it). */
export type NotificationOutcome =
  /** durably stored by the webhook's answer, not applied yet (notification-inbox.ts) */
  | "stored"
  | "early"
  | "applied"
  /** kept, not applied: late, or a status outside the contract's table */
  | "recorded"
  /** the payment does not match the order: the order is held for a person */
  | "held"
  | "conflict"
  | "duplicate";

/** A stored notification not yet tied to an order (it arrived before the order existed). */
export interface WaitingNotification extends OrderNotification {
  /** The stored notification's row id. */
  id: string;
}

/** One database transaction of the Service Pay store: everything in it is written, or nothing. */
export interface ServicePayTx {
  /** The session's open cart (not checked out) when it has at least one line, else null. Its
   *  id is the checkout's cart id: the key of the kept details and of the order made from it. */
  openCartId(sessionId: string): Promise<string | null>;
  /** This session's order of `cartId`; without one, its latest Service Pay order since `since`. */
  findSessionOrder(
    sessionId: string,
    where: { cartId: string } | { since: Date },
  ): Promise<ShopOrder | null>;
  /**
   * Keeps the details; `valuation` replaces the kept one, omitted it stays as it was.
   * Unique key: the kept checkout's cart id (an upsert by it). Without it two payment starts
   * for one cart keep two sets of details, and the order made from them (webhook mode) or
   * purchase_data's addresses may come from either.
   */
  saveCheckout(
    kept: Omit<KeptCheckout, "keptAt" | "asked" | keyof AcceptedValuation> & {
      valuation?: AcceptedValuation;
    },
  ): Promise<void>;
  /** The details kept for a cart (one per cart id, see saveCheckout); a row that no longer
   *  reads as valid details counts as none. */
  loadCheckout(cartId: string): Promise<KeptCheckout | null>;
  /** Forgets the details kept for a cart (the shopper gave up the payment). */
  dropCheckout(cartId: string): Promise<void>;
  /**
   * Moves the session's open cart into a new Service Pay order in `status` with these details
   * and the valuation kept at payment start (items, amounts and shipping fixed now). Null when
   * the cart is empty or no longer open.
   * Unique key: `Order.cartId`. Two instances creating the order of one cart at the same moment
   * (the SDK's listener retried, a webhook in webhook mode) must collide on it: the loser's
   * transaction throws ConcurrentWriteError and pending-order.ts returns the winner's order.
   * Without it the cart gets two orders and the payment is applied to either one.
   */
  createPendingOrder(params: {
    /** The status to write: the host's name for the contract's `pending`
     *  (OrderStatusRules.forServiceStatus.pending). */
    status: string;
    /** The shopper's raw session id (whose open cart). */
    sessionId: string;
    /** The signed-in customer's id, or null for a guest. */
    customerId: string | null;
    /** The kept checkout details. */
    details: CheckoutDetails;
    /** The valuation kept at payment start. */
    valuation: AcceptedValuation;
    /** The shop's public address (the lines' product URLs). */
    shopBaseUrl: string;
    /** The order's first history line. */
    note: string;
  }): Promise<ShopOrder | null>;
  /**
   * Inserts the notification under its unique key, not tied to any order yet. Returns the new
   * row's id, or null when a notification with this key is already stored: the database's
   * unique key decides (INSERT … ON CONFLICT DO NOTHING), so concurrent copies insert once.
   * Unique key: the notification's dedupe key (docs/decisions/webhook-idempotency.md). Without
   * it the contract's repeated deliveries (Events › Webhook) are each applied: history written
   * twice, a hold or discount taken over again. The insert must be in the same transaction as
   * the order change, so a failed change leaves no "already stored" row behind.
   */
  claimNotification(notification: OrderNotification): Promise<string | null>;
  /** Whether another stored notification (another payment) already carries this notification id.
   *  Not unique: the id alone is reused by a restarted service, so it is looked up, not keyed. */
  notificationIdTaken(notificationId: string, dedupeKey: string): Promise<boolean>;
  /** What became of the notification stored under this key (null: none). */
  notificationOutcome(dedupeKey: string): Promise<{
    /** What it did (or "stored": not applied yet). */
    outcome: NotificationOutcome;
    /** The order it was tied to, or null while none is. */
    orderId: string | null;
  } | null>;
  /** Ties a stored notification to its order and records what it did. */
  settleNotification(id: string, orderId: string, outcome: NotificationOutcome): Promise<void>;
  /** Stored notifications for this cart or service order with no order yet, oldest first. */
  waitingNotifications(
    cartId: string,
    serviceOrderId: string | null,
  ): Promise<WaitingNotification[]>;
  /** Whether a notification for this cart is waiting for its order. */
  hasWaitingNotification(cartId: string): Promise<boolean>;
  /**
   * The order a notification names: by the service's order id first, else by cart id, LOCKED.
   * The order stays locked until the transaction ends. Unique keys: `Order.serviceOrderId` and
   * `Order.cartId`, so each names at most one order; without them a notification could pick
   * either of two orders and pay the wrong one. Two notifications for one order may be handled at the same
   * moment (contract, Events › Webhook: deliveries repeat and arrive out of order), and the
   * change is planned from the status read here, so a second transaction must wait here until
   * the first commits, then read what it wrote; never plan from a status about to be replaced.
   * Must hold at the database's default isolation (PostgreSQL: READ COMMITTED) and on SQLite:
   * this shop locks with `SELECT … FOR UPDATE` on PostgreSQL and takes SQLite's one write lock
   * (a write statement) before reading (docs/decisions/concurrent-order-changes.md).
   */
  findOrderFor(serviceOrderId: string | null, cartId: string | null): Promise<ShopOrder | null>;
  /** Statuses the order has had, newest first (its history). */
  statusHistory(orderId: string): Promise<string[]>;
  /** Changes the order (status, service id, discount; total re-derived) and records history.
   *  `order` is one this transaction read through findOrderFor (locked) or created.
   *  Unique key: `Order.serviceOrderId`; setting an id another order holds throws
   *  ConcurrentWriteError (nothing of the transaction is written) instead of tying one service
   *  order to two shop orders. */
  changeOrder(order: ShopOrder, change: OrderChange): Promise<ShopOrder>;
  /**
   * Guest Service Pay orders in `status` (the host's pending) that no notification named (no
   * service order id, no stored notification tied to them), created before `before`, oldest
   * first, at most `limit` looked at: what pruneAbandonedOrders drops (pending-order.ts). Each
   * is LOCKED (as findOrderFor) and checked again after the lock, and one with a notification
   * stored for its cart and not applied yet is left out: a notification applied at the same
   * moment either keeps the order or, applied after, finds none.
   */
  abandonedOrders(status: string, before: Date, limit: number): Promise<ShopOrder[]>;
  /**
   * Deletes the order and everything written with it: its history, its kept checkout, and the
   * shop's rows (its lines, addresses and discounts, and the checked-out cart it was made of).
   * `order` is one this transaction locked (abandonedOrders). A notification arriving later
   * for its cart finds no order and waits, unmatched, for a person (reconciliation).
   */
  dropOrder(order: ShopOrder): Promise<void>;
}

/** The Service Pay records (kept checkouts, pending orders, notifications) and their one
 *  transaction: an adapter's port (contract: Events › Webhook). */
export interface ServicePayStore {
  /** Runs `fn` in one transaction, at the database's default isolation. A unique-key race
   *  with another instance (the keys named on ServicePayTx) throws `ConcurrentWriteError`
   *  (nothing of `fn` is written); any other error is thrown as it is. */
  transaction<T>(fn: (tx: ServicePayTx) => Promise<T>): Promise<T>;
  /**
   * The details kept for the session's open cart: ServicePayTx.loadCheckout of
   * ServicePayTx.openCartId, by the same rules (no open cart with a line, nothing kept, kept for
   * another session, or a row that no longer reads as valid details: null), read at once and
   * outside any transaction. Asked on every view and change of the cart
   * (pending-order.ts, servicePaymentOpen), so one read, not a transaction of two.
   */
  openCartCheckout(sessionId: string): Promise<KeptCheckout | null>;
}

/**
 * Store-then-apply (notification-inbox.ts): the webhook answers 200 once the raw notification
 * is durably stored, and applies it right after. A host that does not offer this store keeps
 * the one-transaction path (receiveNotification), where a 200 also means applied.
 */
export interface StoredNotificationStore extends ServicePayStore {
  /**
   * Inserts every notification of the batch with outcome "stored", not tied to any order, in
   * ONE transaction (one durable commit for the batch: contract, Merchant endpoints rule 2,
   * the 200 tells the service to stop retrying). Returns, in the batch's order, each new row's
   * id, or null when its dedupe key was already stored (or came earlier in the same batch).
   * Unique key: the notification's dedupe key, as claimNotification. Throws when the commit
   * fails: then none of the batch is stored, and none of its deliveries may be answered 200.
   */
  storeBatch(notifications: OrderNotification[]): Promise<(string | null)[]>;
  /** Stored notifications no one has applied yet (outcome "stored"), oldest first. */
  unapplied(limit: number): Promise<WaitingNotification[]>;
  /** ServicePayStore.transaction, whose transaction also takes stored notifications. */
  transaction<T>(fn: (tx: StoredNotificationTx) => Promise<T>): Promise<T>;
}

/** A Service Pay transaction that also applies stored notifications (store-then-apply). */
export interface StoredNotificationTx extends ServicePayTx {
  /**
   * Takes a stored notification for applying in this transaction: one conditional UPDATE from
   * "stored" to "early" (… WHERE outcome = 'stored'), true when this transaction changed it.
   * The database decides, never a process's memory: a second applier (another instance, the
   * start-up sweep) waits on the row and then finds it taken, so a notification is applied
   * once; a rolled-back apply leaves it "stored" for the next try.
   */
  claimStored(id: string): Promise<boolean>;
  /**
   * The stored notifications ("stored") of this cart or service order received before the
   * stored row `id`, oldest first: applied before it, so an order moves on in the order its
   * notifications were stored even when two instances apply their own rows at different paces.
   */
  storedBefore(
    id: string,
    cartId: string | null,
    serviceOrderId: string | null,
  ): Promise<WaitingNotification[]>;
}

/** Thrown by a store when another writer took the same unique key first. */
export class ConcurrentWriteError extends Error {
  /** Always "ConcurrentWriteError": isConcurrentWrite tests it by name. */
  override name = "ConcurrentWriteError";
}

/** By name, so it holds across two bundled copies of this module in one process. */
export function isConcurrentWrite(error: unknown): boolean {
  return error instanceof Error && error.name === "ConcurrentWriteError";
}

// ---------------------------------------------------------------------------------------------
// The host's checkout page and routes, as the browser side needs them (contract: Front-end SDK)

/**
 * Where the host serves the pages and routes the service's browser side uses: paths from the
 * shop's base URL, each starting with "/". The host mounts the kit's handlers wherever it
 * likes; the SDK configuration and the payment option read the paths from here.
 */
export interface ShopRoutes {
  /** `{merchant_callbacks_base}`: under it the host serves shopper_data and purchase_data. */
  callbacks: string;
  /** `{merchant_success_url}`: the page the service sends the shopper to after paying. */
  confirmation: string;
  /** The route that checks and keeps the checkout's details before openPayment(). */
  checkout: string;
  /** The route that creates the pending order on ready-to-place-order (idempotent by cart id). */
  pendingOrder: string;
}

/**
 * The names of the host checkout form's fields the payment option reads when the shopper pays
 * with the service (it posts them to `ShopRoutes.checkout` and `pendingOrder` in the contract's
 * words). The radio's own name and value are the contract's, not the host's: `payment_method`,
 * `service_pay` (Front-end SDK › Payment option markup).
 */
export interface CheckoutFormFields {
  /** The shopper's e-mail input. */
  email: string;
  /** The input of each contract Address field in the billing address. */
  billing: Readonly<Record<keyof Address, string>>;
  /** The input of each contract Address field in the shipping address. */
  shipping: Readonly<Record<keyof Address, string>>;
  /** A checkbox: when it is checked the shipping address is the billing one. */
  shippingSame: string;
  /** The chosen delivery method's id. */
  shippingMethod: string;
}

// ---------------------------------------------------------------------------------------------
// Merchant endpoints (shopper data, purchase data)

/** A customer of the shop as shopper data (contract: Shopper data › customer) and purchase data
 *  need it. */
export interface ShopCustomer {
  /** The customer's id in the shop (shopper data's `customer.id`). */
  id: string;
  /** Their e-mail. */
  email: string;
  /** Their given name (`given_name`). */
  givenName: string;
  /** Their family name (`family_name`). */
  familyName: string;
  /** The customer's saved address, if any. */
  address: Address | null;
}

/** A shop's cart as the contract Cart needs it: its id, currency, product lines and the
 *  cart-level discounts applied to it (contract: Cart › discounts; none: omitted or empty). */
export interface ShopCartLines {
  /** The cart's id (the contract Cart's `id`; the checkout's cart id). */
  id: string;
  /** The cart's currency code (ISO 4217). */
  currency: string;
  /** Its product lines (unit price and tax in integer cents). */
  items: ShopOrderItem[];
  /** Its cart-level discounts; omitted or empty when none. */
  discounts?: Discount[];
}

/** What the merchant endpoints (shopper_data, purchase_data) read of the shop. */
export interface ShopperSource {
  /** The customer with this id, or null when the shop has none. */
  customer(customerId: string): Promise<ShopCustomer | null>;
  /** The session's open cart (no lines: null); the kit adds the delivery line. */
  openCart(sessionId: string, shopBaseUrl: string): Promise<ShopCartLines | null>;
  /** The checkout details kept for the cart (the adapter's), or null: purchase data's
   *  addresses once the shopper started paying. */
  loadCheckout(cartId: string): Promise<KeptCheckout | null>;
  /**
   * Records on the kept checkout `kept` (as loadCheckout read it) what purchase_data just
   * answered while its payment was open; the pending order is made only when it owes exactly
   * that (pending-order.ts). One conditional write: nothing when the row was kept again (a new
   * payment start) or dropped since it was read; `keptAt` stays.
   */
  noteAskedToCollect(
    kept: Pick<KeptCheckout, "cartId" | "sessionId" | "keptAt">,
    asked: AskedAmount,
  ): Promise<void>;
  /**
   * A delivery method in the cart's currency: purchase data's shipping.method, and the Cart's
   * delivery line, so the service charges it (docs/decisions/delivery-in-the-cart.md).
   */
  shippingMethod(id: string, currency: string): DeliveryCharge | Promise<DeliveryCharge>;
  /** The delivery method purchase data shows before the shopper chose one. */
  defaultShippingMethod: string;
}

// ---------------------------------------------------------------------------------------------
// Card payments with a trade-in (POST /register-purchase) and the back office

/** register-purchase of one card order: written before any call, retried until final. */
export interface TradeInRegistration {
  /** The row's id. */
  id: string;
  /** The card order's id in the shop (one registration per order). */
  orderId: string;
  /** The shopper's session hash (contract: Session hash) the service finds the trade-in by. */
  sessionHash: string;
  /** Base64 of the contract Cart's JSON, exactly as sent. */
  cart: string;
  /** The body's `order_amount`: what the order owes, integer cents (a decimal is refused). */
  orderAmount: number;
  /** The signed-in customer's id, or null for a guest. */
  customerId: string | null;
  /** queued (to be sent or retried), registered (the service accepted it), not_applied (the
   *  service refused it: no accepted, unexpired trade-in), no_trade_in (nothing to register). */
  status: "queued" | "registered" | "not_applied" | "no_trade_in";
  /** True until the session check (trade-in accepted, unexpired) has passed; a queued retry of
   *  the send itself must not check again (register-purchase.ts). */
  precheck: boolean;
  /** Attempts claimed so far (the compare-and-set of `claim`). */
  attempts: number;
  /** The last attempt found the service unreachable: no connection, or no answer in time
   *  (`RetryReason` "network" or "timeout"). A column of its own: `lastError` is free text for
   *  people, never parsed. */
  unreachable: boolean;
}

/** The card orders' register-purchase rows and their retry job's lease: an adapter's port. */
export interface TradeInRegistrationStore {
  /** The placed order with this id, or null. */
  order(orderId: string): Promise<PlacedOrder | null>;
  /** The order's registration, or null when none was written. */
  find(orderId: string): Promise<TradeInRegistration | null>;
  /**
   * Creates the row with every field as given (a new row: `precheck` true, `attempts` 0,
   * `unreachable` false; the kit passes them, so no database default is relied on); false when
   * the order already has one.
   * Unique key: `TradeInRegistration.orderId` (the insert's conflict, not a read first). The
   * card order may be submitted twice at once; without the key both requests write a row and
   * register-purchase is sent twice for one order (two attempts, two outcomes on one order).
   */
  create(row: Omit<TradeInRegistration, "id"> & { nextAttemptAt: Date }): Promise<boolean>;
  /** Compare-and-set on `attempts`: true when this caller now holds the attempt until `until`.
   *  One conditional UPDATE (… WHERE attempts = row.attempts), atomic at the default isolation;
   *  a read then a write would let two runners both send the same registration. */
  claim(row: TradeInRegistration, until: Date): Promise<boolean>;
  /** The row's outcome and, when the trade-in state changed, the order with its history.
   *  `unreachable` is kept in a field of its own (unreachableSince reads it); `lastError` is
   *  the failure in words for people. */
  finish(
    row: TradeInRegistration,
    result: {
      /** TradeInRegistration.status after the attempt. */
      status: TradeInRegistration["status"];
      /** TradeInRegistration.precheck after the attempt. */
      precheck: boolean;
      /** TradeInRegistration.unreachable: this attempt found the service unreachable. */
      unreachable: boolean;
      /** Why it is not registered (a NotAppliedReason or RetryReason); empty when it is. */
      reason: string;
      /** The failure in words, for people (never parsed); empty when there was none. */
      lastError: string;
      /** When the retry job may send it again; null once it is final. */
      nextAttemptAt: Date | null;
      /** The service's answer to register-purchase as JSON, once registered. */
      response?: string;
    },
    order: { tradeInStatus: string; tradeInMessage: string | null; note: string } | null,
  ): Promise<void>;
  /**
   * Claims up to `limit` queued registrations that are due (all queued ones with `all`) for this
   * runner until `until`, and gives their orders. Every instance runs the retry job: rows one
   * runner claimed are not due for the others (a database lease; `FOR UPDATE SKIP LOCKED` where
   * the database has it), so each is tried by one runner at a time; `claim` still guards the
   * attempt itself. Each row comes with its `attempts` as read in the same statement (or
   * transaction) that leased it: the runner claims the row only if no attempt was claimed since
   * (its creator may claim it between the row's insert and the lease), so one attempt is never
   * made twice.
   */
  due(
    now: Date,
    options: { limit: number; all: boolean; until: Date },
  ): Promise<
    {
      /** The leased registration's order id. */
      orderId: string;
      /** Its attempts as read when leased (claim compares against it). */
      attempts: number;
    }[]
  >;
  /** The trade-in id this session's browser last saw accepted, if any. */
  tradeInSeen(sessionId: string): Promise<string | null>;
  /**
   * A shopper's sign-in that gives them a new session id (the kit's guest identity rotates it,
   * GuestIdentity.signIn): the trade-in session `from` saw becomes session `to`'s too, as the
   * host carries the cart, so a card payment after sign-in still explains the valuation seen
   * before it. Nothing when `from` saw none. Only for `carried` (the guest's own session, or this
   * customer's): a sign-in over another customer's session carries nothing of theirs.
   */
  carryTradeInSeen(from: string, to: string): Promise<void>;
  /** Whether a queued registration's last attempt, finished at or after `since`, found the
   *  service unreachable (finished with `unreachable: true`): the database remembers it, so
   *  every instance stops making shoppers wait for a while. Reads the `unreachable` field,
   *  never `lastError`'s words. */
  unreachableSince(since: Date): Promise<boolean>;
}

/** The back office's order changes that the service is told about (orders/update). */
export interface ServiceOrderStore {
  /** The placed order with this id, or null. */
  order(orderId: string): Promise<PlacedOrder | null>;
  /**
   * Writes `change` against the order as it is when written, locked (a notification may have
   * moved it since `order` was read): the history records the real `from`, and a `to` the order
   * can no longer take in one step is dropped, the change's note still recorded
   * (docs/decisions/concurrent-order-changes.md).
   */
  changeOrder(order: ShopOrder, change: OrderChange): Promise<void>;
  /** Orders with one of these service order ids or cart ids (reconciliation). Unique keys:
   *  `Order.serviceOrderId` and `Order.cartId`: each listed service order matches one order. */
  findOrders(serviceOrderIds: string[], cartIds: string[]): Promise<ShopOrder[]>;
  /** What a person must look at: held orders (each with the history note that held it), and
   *  notification ids used by two payments. */
  needsAttention(): Promise<{
    /** The orders in the held status. */
    held: (ShopOrder & {
      /** The history note that held it (why the payment did not match). */
      heldBecause: string;
    })[];
    /** Notification ids two stored payments carry. */
    reusedNotificationIds: string[];
  }>;
}

/** One entry of the inspector's log (integration-log.ts): its kind, and the entry. */
export type IntegrationEntryKind = "api" | "callback" | "webhook" | "step";

/** One entry of the integration inspector's log: a service call, a callback, a webhook or a
 *  step, with its outcome. */
export interface IntegrationEntry {
  /** The store's own increasing number (read's `afterSeq`). */
  seq: number;
  /** When it happened, ISO 8601. */
  at: string;
  /** What it is: a service call, a merchant callback, a webhook, or a step of the kit. */
  kind: IntegrationEntryKind;
  /** e.g. "GET /core/sessions/3f2a…/" or "register-purchase queued" */
  label: string;
  /** The HTTP status answered, when it was a call. */
  status?: number;
  /** Whether it went as it should. */
  ok: boolean;
  /** How long it took, in milliseconds, when timed. */
  durationMs?: number;
  /** More about it in words (never a token or a raw session id). */
  detail?: string;
  /**
   * A non-2xx answer that is an expected step of the protocol, in a plain sentence (the drawer
   * shows it neutral, not as a failure): see `expectedAnswer`.
   */
  expected?: string;
}

/**
 * The integration inspector's log of service calls and steps per shopper (integration-log.ts),
 * kept where every instance reads it. `read` gives a key's latest entries (at most 100) after
 * `afterSeq`, oldest first; `seq` is the store's own increasing number.
 */
export interface IntegrationLogStore {
  /** Adds an entry under `key` (the store numbers it). */
  append(key: string, entry: Omit<IntegrationEntry, "seq">): Promise<void>;
  /** The key's latest entries after `afterSeq` (at most 100), oldest first. */
  read(key: string, afterSeq: number): Promise<IntegrationEntry[]>;
}

/** The inspector drawer's webhook entries: notifications stored for the session's orders. */
export interface InspectorSource {
  /** The notifications stored for this session's orders. */
  sessionNotifications(sessionId: string): Promise<
    {
      /** When the shop stored it. */
      receivedAt: Date;
      /** The notification's event name, when it had one. */
      event: string | null;
      /** The contract order status it carried (pending, payment_completed, completed). */
      status: string;
      /** What became of it (NotificationOutcome). */
      outcome: string;
      /** The number of the order it was tied to. */
      orderNumber: string;
    }[]
  >;
}
