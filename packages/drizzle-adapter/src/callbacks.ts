import type {
  AcceptedValuation,
  CheckoutDetails,
  OrderStatusRules,
  PlacedOrder,
  ShopOrder,
  ShopperSource,
  StoredTokens,
} from "@service-integration/kit";

/**
 * What stays the shop's: its status names, its carts and its order rows. Everything about the
 * integration's own records (tokens, lease, kept checkouts, notifications, registrations,
 * order history, the inspector's log) the adapter keeps on its own tables.
 * `Q` is the dialect's database handle: inside a Service Pay transaction the transaction, so
 * what a callback writes commits or rolls back with the integration's own rows.
 */
export interface ShopCallbacks<Q> {
  /**
   * The shop's order statuses (the kit's OrderStatusRules: the names written into its orders).
   * @example
   * statuses: { forServiceStatus: { pending: "awaiting_payment", payment_completed: "paid",
   *   completed: "dispatched" }, afterUpdate: { …, cart_update: null }, isKnown, canReach,
   *   canTransition, isPaidOrLater: (s) => PAID.has(s), held: "on_hold" }
   */
  statuses: OrderStatusRules;
  /**
   * The session's open cart (not checked out) when it has at least one line, else null: its id
   * is the checkout's cart id (ServicePayTx.openCartId).
   * @example
   * async openCartId(q, sessionId) {
   *   const [cart] = await q.select({ id: carts.id }).from(carts)
   *     .where(and(eq(carts.sessionId, sessionId), isNull(carts.checkedOutAt)))
   *     .orderBy(desc(carts.createdAt)).limit(1);
   *   if (!cart) return null;
   *   const [line] = await q.select({ id: cartLines.cartId }).from(cartLines)
   *     .where(eq(cartLines.cartId, cart.id)).limit(1);
   *   return line ? cart.id : null;
   * }
   */
  openCartId(q: Q, sessionId: string): Promise<string | null>;
  /**
   * Moves the session's open cart into a new order, in the adapter's transaction `q`: writes the
   * order row with `columns` spread in (and its own cartId, currency, price, tax, shippingPrice,
   * discountTotal, total: price + tax + shippingPrice − discountTotal − tradeInDiscount, the kit's
   * orderTotal), its lines and addresses, and marks the
   * cart checked out. Returns the new order's id, or null when the cart is empty, no longer
   * open, or the details name no delivery method of the shop. The adapter writes the order's
   * first history line. Unique key: the order's `cartId` (serviceOrderColumns): a second order
   * for the cart throws there, and the adapter answers ConcurrentWriteError (shop-ports.ts).
   * @example
   * async createOrder(q, { sessionId, details, columns }) {
   *   const cartId = await shop.openCartId(q, sessionId);
   *   const method = SHIPPING[details.shippingMethod];
   *   if (!cartId || !method) return null;
   *   const lines = await linesOf(q, cartId);
   *   const price = sum(lines, (l) => l.price * l.quantity), tax = sum(lines, (l) => l.tax * l.quantity);
   *   const id = randomUUID();
   *   await q.insert(orders).values({ id, number: orderNumber(), email: details.email, ...columns,
   *     cartId, currency: "EUR", price, tax, shippingPrice: method.price,
   *     total: price + tax + method.price });
   *   await q.insert(orderLines).values(lines.map((l) => ({ orderId: id, ...l })));
   *   await q.update(carts).set({ checkedOutAt: new Date() }).where(eq(carts.id, cartId));
   *   return id;
   * }
   */
  createOrder(q: Q, params: CreateOrderParams): Promise<string | null>;
  /**
   * The placed order's lines, the delivery it charged (`delivery.price` equals the order's
   * shippingPrice) and its cart-level discounts (contract: Discount; their totals sum to the
   * order's `discountTotal`; none: omit): what its contract Cart is built from
   * (register-purchase, order updates).
   * @example
   * async placedOrder(q, order) {
   *   const items = await q.select({ productId: orderLines.productId, name: orderLines.name,
   *     description: orderLines.description, url: orderLines.url, quantity: orderLines.quantity,
   *     price: orderLines.price, tax: orderLines.tax }).from(orderLines)
   *     .where(eq(orderLines.orderId, order.id));
   *   return { items, delivery: deliveryOf(order.id, order.currency, order.shippingPrice) };
   * }
   */
  placedOrder(
    q: Q,
    order: ShopOrder,
  ): Promise<Pick<PlacedOrder, "items" | "delivery" | "discounts">>;
  /**
   * The merchant endpoints' view of the shop (shopper data, purchase data): its customers, the
   * open cart's lines, its delivery methods. The kept checkout details come from the adapter.
   * @example
   * shopper: { customer: (id) => customerById(id), openCart: (sessionId, base) => cartLines(sessionId, base),
   *   shippingMethod: (id, currency) => ({ id, name: "Standard", price: 490, tax: 0, … }),
   *   defaultShippingMethod: "standard" }
   */
  shopper: Omit<ShopperSource, "loadCheckout">;
}

/** What the adapter hands `createOrder`. */
export interface CreateOrderParams {
  sessionId: string;
  customerId: string | null;
  details: CheckoutDetails;
  valuation: AcceptedValuation;
  shopBaseUrl: string;
  /** Why the order is made (also written as its first history line). */
  note: string;
  /** The integration's columns of the new order row, filled: spread them into the insert. */
  columns: NewOrderColumns;
}

/** The integration's columns of a new Service Pay order that the adapter decides. */
export interface NewOrderColumns extends AcceptedValuation {
  sessionId: string;
  customerId: string | null;
  /** The status the kit hands createPendingOrder: the shop's name for the contract's `pending`
   *  (statuses.forServiceStatus.pending). */
  status: string;
  paymentMethod: "service_pay";
  tradeInDiscount: 0;
}

/** The sealer the token store seals the secrets with: the kit's `createTokenSealer(key)`
 *  (@service-integration/kit/server). Declared here so this package loads outside a React
 *  server environment. */
export interface TokenSealer {
  seal(field: string, plain: string): string;
  open(field: string, sealed: string): string | null;
}

export type { StoredTokens };
