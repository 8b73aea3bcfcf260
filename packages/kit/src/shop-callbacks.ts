import type {
  AcceptedValuation,
  CheckoutDetails,
  OrderStatusRules,
  PlacedOrder,
  ShopOrder,
  ShopperSource,
} from "./shop-ports.js";

/**
 * What stays the shop's when an adapter package (@service-integration/prisma-adapter,
 * @service-integration/drizzle-adapter) keeps the integration's own records (tokens, lease,
 * kept checkouts, notifications, registrations, order history, the inspector's log): its status
 * names, its carts and its order rows. `Q` is the adapter's database handle: inside a Service Pay
 * transaction the transaction, so what a callback writes commits or rolls back with the
 * integration's own rows. Defined once here; each adapter re-exports it and its README shows the
 * members in its own query language.
 */
export interface ShopCallbacks<Q> {
  /** The shop's order statuses (OrderStatusRules: the names written into its orders). */
  statuses: OrderStatusRules;
  /**
   * The session's open cart (not checked out) when it has at least one line, else null: its id
   * is the checkout's cart id (ServicePayTx.openCartId).
   */
  openCartId(q: Q, sessionId: string): Promise<string | null>;
  /**
   * Moves the session's open cart into a new order, in the adapter's transaction `q`: writes the
   * order row with `columns` spread in (and its own cartId, currency, price, tax, shippingPrice,
   * discountTotal, total: price + tax + shippingPrice − discountTotal − tradeInDiscount, the
   * kit's orderTotal), its lines and addresses, and marks the cart checked out. Returns the new
   * order's id, or null when the cart is empty, no longer open, or the details name no delivery
   * method of the shop. The adapter writes the order's first history line. Unique key: the
   * order's `cartId` (the adapter's README, the order columns): a second order for the cart
   * throws there, and the adapter answers ConcurrentWriteError (shop-ports.ts).
   */
  createOrder(q: Q, params: CreateOrderParams): Promise<string | null>;
  /**
   * The placed order's lines, the delivery it charged (`delivery.price` equals the order's
   * shippingPrice) and its cart-level discounts (contract: Discount; their totals sum to the
   * order's `discountTotal`; none: omit): what its contract Cart is built from
   * (register-purchase, order updates).
   */
  placedOrder(
    q: Q,
    order: ShopOrder,
  ): Promise<Pick<PlacedOrder, "items" | "delivery" | "discounts">>;
  /**
   * Deletes the shop's rows of `order`, in the adapter's transaction `q`: the order row, its
   * lines, addresses and discounts, and the checked-out cart it was made of (with its lines).
   * The kit calls it only for a guest's pending Service Pay order that no notification named,
   * older than the payment modal's lifetime plus a margin (pruneAbandonedOrders,
   * docs/decisions/abandoned-pending-orders.md), after deleting the integration's own rows of
   * it (history, kept checkout).
   */
  dropOrder(q: Q, order: ShopOrder): Promise<void>;
  /**
   * The merchant endpoints' view of the shop (shopper data, purchase data): its customers, the
   * open cart's lines and discounts, its delivery methods. The kept checkout details come from
   * the adapter, which also records what purchase_data answered.
   */
  shopper: Omit<ShopperSource, "loadCheckout" | "noteAskedToCollect">;
}

/** What the adapter hands `createOrder`. */
export interface CreateOrderParams {
  /** The shopper's raw session id (server side only): whose open cart becomes the order. */
  sessionId: string;
  /** The signed-in customer's id in the shop, or null for a guest. */
  customerId: string | null;
  /** What the checkout form held (kept when the Service Pay payment started). */
  details: CheckoutDetails;
  /** The trade-in the service showed when the payment started (also in `columns`). */
  valuation: AcceptedValuation;
  /** The shop's public address, for the order lines' product URLs. */
  shopBaseUrl: string;
  /** Why the order is made (also written as its first history line). */
  note: string;
  /** The integration's columns of the new order row, filled: spread them into the write. */
  columns: NewOrderColumns;
}

/** The integration's columns of a new Service Pay order that the adapter decides. */
export interface NewOrderColumns extends AcceptedValuation {
  /** The shopper's raw session id (server side only). */
  sessionId: string;
  /** The signed-in customer's id in the shop, or null for a guest. */
  customerId: string | null;
  /** The status the kit hands createPendingOrder: the shop's name for the contract's `pending`
   *  (statuses.forServiceStatus.pending). */
  status: string;
  /** Always `service_pay`: the order is paid through the service. */
  paymentMethod: "service_pay";
  /** Integer cents; 0 until the paid notification's `trade_in_discount` is applied. */
  tradeInDiscount: 0;
}

/**
 * What seals the service's tokens at rest: `createTokenSealer(key)` of
 * "@service-integration/kit/server" makes one (token-sealing.ts). Declared in this
 * environment-neutral entry so an adapter's types load outside a React server environment.
 */
export interface TokenSealer {
  /** `plain` sealed for the column `field` (bound in: it opens only there), as storable text. */
  seal(field: string, plain: string): string;
  /** What `seal(field, …)` sealed, or null for anything it cannot open (another key, tampering,
   *  a value stored in plain text): the token manager then logs in again. */
  open(field: string, sealed: string): string | null;
}
