import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "../clock";
import type {
  AccessToken,
  ApiUser,
  Cart,
  Cents,
  Currency,
  Customer,
  Merchant,
  Millis,
  OAuthClient,
  Order,
  OrderItemQuantity,
  OrderStatus,
  PaymentPath,
  RefreshToken,
  Scope,
  Seed,
  Session,
  SessionVersion,
  TradeInCondition,
  TradeInDevice,
  TradeInItem,
  TradeInStatus,
  UpdateType,
} from "../domain";

// Plain synchronous operations on the in-memory state. Routes (the service API, the control
// API, the SDK routes and the webhook dispatcher) call these; none of them touch the maps
// directly. Every time comes from the clock of the merchant concerned (clock.ts).

export const HOUR: Millis = 60 * 60 * 1000;
export const DAY: Millis = 24 * HOUR;

/** Lifetimes (documented in emulator/README.md, fidelity table). */
export const LIFETIMES = {
  /** Contract: access tokens live 1 hour from issue or refresh. */
  accessToken: HOUR,
  /** Not shown by the contract: 14 days. */
  refreshToken: 14 * DAY,
  /** Not shown: a session expires 72 h after it was last bound or moved to a new version. */
  session: 72 * HOUR,
  /** Contract: re-value after roughly 24 to 48 hours; valid_until = created + 48 h by default. */
  valuation: 48 * HOUR,
} as const;

export type SessionLookup =
  | {
      kind: "ok";
      session: Session;
      version: SessionVersion;
      current: SessionVersion;
      /** What the key named: the bare session hash, or one version's session_id. */
      via: "hash" | "session_id";
    }
  | { kind: "not_found" }
  | { kind: "gone"; session: Session; current: SessionVersion };

export type TradeInLookup =
  | { kind: "ok"; item: TradeInItem }
  | { kind: "not_found" }
  | { kind: "gone"; item: TradeInItem };

export interface CreateTradeInInput {
  merchant_id: string;
  session_hash: string;
  value: Cents;
  currency: Currency;
  status?: TradeInStatus;
  device?: TradeInDevice;
  condition?: TradeInCondition;
  /** Absolute expiry; default now + LIFETIMES.valuation. */
  valid_until?: Millis;
}

export interface CreateOrderInput {
  merchant_id: string;
  order_id?: string;
  cart_id: string;
  status: OrderStatus;
  amount: Cents;
  currency: Currency;
  trade_in_discount: Cents;
  customer_id?: string | null;
  session_hash?: string | null;
  tradein_item_id?: string | null;
  payment: PaymentPath;
  cart?: Cart | null;
}

export interface Snapshot {
  version: 1;
  seed: Seed;
  counters: Record<string, number>;
  merchants: Merchant[];
  access_tokens: AccessToken[];
  refresh_tokens: RefreshToken[];
  sessions: Session[];
  tradein_items: TradeInItem[];
  orders: Order[];
  purchases: [string, string][];
  /** The id prefix the saved ids were made with (absent in files saved before it existed). */
  id_prefix?: string;
}

/**
 * A prefix no other boot of the emulator shares, e.g. "k3x9q2": ids look like
 * `ord_k3x9q2_000001`, so an emulator restarted without `--state` never hands out an id a
 * merchant already stored (a repeated `wh_000001` would be taken for a duplicate delivery).
 */
export function newIdPrefix(): string {
  return randomBytes(4).readUInt32BE(0).toString(36).padStart(6, "0").slice(-6);
}

const DEFAULT_DEVICE: TradeInDevice = {
  category: "phones",
  model_id: "phone-aurora-14",
  brand: "Aurora",
  name: "Aurora 14",
};

/** Session ids are `<session_hash>|NNN` (contract, Session resource): zero-padded to three
 *  digits, and simply more digits from version 1000 on. */
export function formatSessionId(hash: string, version: number): string {
  return `${hash}|${String(version).padStart(3, "0")}`;
}

/** Accepts `<hash>` or `<hash>|NNN` in its one canonical form (`|1`, `|0002` are malformed);
 *  a malformed version gives null. */
export function parseSessionId(value: string): { hash: string; version: number | null } | null {
  const bar = value.indexOf("|");
  if (bar === -1) return value.length > 0 ? { hash: value, version: null } : null;
  const hash = value.slice(0, bar);
  const suffix = value.slice(bar + 1);
  if (hash.length === 0 || !/^\d{3,9}$/.test(suffix)) return null;
  const version = Number(suffix);
  if (formatSessionId(hash, version) !== value) return null;
  return { hash, version };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function clone<T>(value: T): T {
  return structuredClone(value);
}

export class Store {
  readonly clock: Clock;
  seed: Seed;
  merchants = new Map<string, Merchant>();
  users = new Map<string, ApiUser>();
  clients = new Map<string, OAuthClient>();
  accessTokens = new Map<string, AccessToken>();
  refreshTokens = new Map<string, RefreshToken>();
  sessions = new Map<string, Session>();
  tradeIns = new Map<string, TradeInItem>();
  orders = new Map<string, Order>();
  /** Registered purchases: `${session_hash}|${cart_id}` → service order id. */
  purchases = new Map<string, string>();
  /** Opaque session_id (merchant setting `session_id_form: "uuid"`) → session hash. */
  sessionUuids = new Map<string, string>();
  counters: Record<string, number> = {};
  /** Part of every id this store hands out ("" in unit tests that build a Store directly). */
  idPrefix: string;

  constructor(seed: Seed, clock: Clock, idPrefix = "") {
    this.clock = clock;
    this.seed = seed;
    this.idPrefix = idPrefix;
    this.reset();
  }

  /** Back to the seed: every session, token, trade-in and order is dropped (ids keep counting). */
  reset(seed: Seed = this.seed): void {
    this.seed = seed;
    this.merchants = new Map(seed.merchants.map((m) => [m.id, clone(m)]));
    this.users = new Map(seed.users.map((u) => [u.id, clone(u)]));
    this.clients = new Map(seed.clients.map((c) => [c.client_id, clone(c)]));
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.sessions.clear();
    this.sessionUuids.clear();
    this.tradeIns.clear();
    this.orders.clear();
    this.purchases.clear();
    // Ids keep counting across resets: a merchant's database outlives a reset, and the real
    // service never hands out an order or trade-in id twice (a reused ord_000001 would collide
    // with the shop's stored one).
  }

  /** The next id of a kind (`ord`, `ti`, `wh`, ...): counters are saved with --state. */
  nextId(prefix: string): string {
    const n = (this.counters[prefix] ?? 0) + 1;
    this.counters[prefix] = n;
    const boot = this.idPrefix ? `${this.idPrefix}_` : "";
    return `${prefix}_${boot}${String(n).padStart(6, "0")}`;
  }

  // ---- merchants, users, clients ----

  getMerchant(id: string): Merchant | undefined {
    return this.merchants.get(id);
  }

  updateMerchant(id: string, patch: Partial<Omit<Merchant, "id">>): Merchant | undefined {
    const merchant = this.merchants.get(id);
    if (!merchant) return undefined;
    const next: Merchant = {
      ...merchant,
      ...patch,
      minimums: { ...merchant.minimums, ...patch.minimums },
    };
    this.merchants.set(id, next);
    return next;
  }

  /**
   * Adds a merchant with its API users and OAuth clients (control API: a clone of a seed
   * merchant). It joins the store's seed: its reset state, kept by a global reset and saved
   * with --state like the seed's own merchants.
   */
  addMerchant(merchant: Merchant, users: ApiUser[], clients: OAuthClient[]): void {
    this.seed = {
      ...this.seed,
      merchants: [...this.seed.merchants, clone(merchant)],
      users: [...this.seed.users, ...clone(users)],
      clients: [...this.seed.clients, ...clone(clients)],
    };
    this.merchants.set(merchant.id, clone(merchant));
    for (const user of users) this.users.set(user.id, clone(user));
    for (const c of clients) this.clients.set(c.client_id, clone(c));
  }

  /** Drops a merchant added with addMerchant, with everything of it. */
  removeMerchant(id: string): void {
    this.resetMerchant(id);
    this.seed = {
      ...this.seed,
      merchants: this.seed.merchants.filter((m) => m.id !== id),
      users: this.seed.users.filter((u) => u.merchant_id !== id),
      clients: this.seed.clients.filter((c) => c.merchant_id !== id),
    };
    this.merchants.delete(id);
    for (const user of [...this.users.values()]) {
      if (user.merchant_id === id) this.users.delete(user.id);
    }
    for (const c of [...this.clients.values()]) {
      if (c.merchant_id === id) this.clients.delete(c.client_id);
    }
  }

  /**
   * One merchant back to its seed (or creation) state: its settings, users and clients as
   * seeded, and none of its tokens, sessions, trade-ins, orders or registered purchases. Other
   * merchants keep everything; ids keep counting.
   */
  resetMerchant(id: string): void {
    const seeded = this.seed.merchants.find((m) => m.id === id);
    if (seeded) this.merchants.set(id, clone(seeded));
    for (const user of this.seed.users) {
      if (user.merchant_id === id) this.users.set(user.id, clone(user));
    }
    for (const c of this.seed.clients) {
      if (c.merchant_id === id) this.clients.set(c.client_id, clone(c));
    }
    for (const [key, token] of this.accessTokens) {
      if (token.merchant_id === id) this.accessTokens.delete(key);
    }
    for (const [key, token] of this.refreshTokens) {
      if (token.merchant_id === id) this.refreshTokens.delete(key);
    }
    for (const [hash, session] of this.sessions) {
      if (session.merchant_id !== id) continue;
      for (const version of session.versions) this.sessionUuids.delete(version.uuid);
      this.sessions.delete(hash);
    }
    for (const [key, item] of this.tradeIns) {
      if (item.merchant_id === id) this.tradeIns.delete(key);
    }
    for (const [key, orderId] of this.purchases) {
      if (this.orders.get(orderId)?.merchant_id === id) this.purchases.delete(key);
    }
    for (const [key, order] of this.orders) {
      if (order.merchant_id === id) this.orders.delete(key);
    }
  }

  getClient(clientId: string): OAuthClient | undefined {
    return this.clients.get(clientId);
  }

  findUser(merchantId: string, username: string): ApiUser | undefined {
    for (const user of this.users.values()) {
      if (user.merchant_id === merchantId && user.username === username) return user;
    }
    return undefined;
  }

  getUser(id: string): ApiUser | undefined {
    return this.users.get(id);
  }

  // ---- tokens ----

  issueTokens(
    client: OAuthClient,
    user: ApiUser,
    scopes: Scope[],
  ): { access: AccessToken; refresh: RefreshToken } {
    const now = this.clock.now(user.merchant_id);
    const base = {
      client_id: client.client_id,
      user_id: user.id,
      merchant_id: user.merchant_id,
      scopes,
    };
    const access: AccessToken = {
      ...base,
      token: randomBytes(24).toString("base64url"),
      expires_at: now + LIFETIMES.accessToken,
    };
    const refresh: RefreshToken = {
      ...base,
      token: randomBytes(32).toString("base64url"),
      expires_at: now + LIFETIMES.refreshToken,
      revoked: false,
    };
    this.accessTokens.set(access.token, access);
    this.refreshTokens.set(refresh.token, refresh);
    return { access, refresh };
  }

  /** The access token if it exists and has not expired on the emulator clock. */
  validAccessToken(token: string): AccessToken | undefined {
    const access = this.accessTokens.get(token);
    if (!access) return undefined;
    if (this.clock.now(access.merchant_id) >= access.expires_at) return undefined;
    return access;
  }

  getRefreshToken(token: string): RefreshToken | undefined {
    return this.refreshTokens.get(token);
  }

  revokeRefreshToken(token: string): void {
    const refresh = this.refreshTokens.get(token);
    if (refresh) refresh.revoked = true;
  }

  // ---- sessions ----

  /**
   * Binds a session hash to a merchant: creates version 001, or returns the current version of
   * an existing, unexpired session (and extends its life). An expired session starts over.
   */
  bindSession(
    merchantId: string,
    hash: string,
    customer?: Customer,
  ): { session: Session; version: SessionVersion } {
    const now = this.clock.now(merchantId);
    const existing = this.sessions.get(hash);
    if (existing && existing.merchant_id === merchantId && now < existing.expires_at) {
      existing.expires_at = now + LIFETIMES.session;
      if (customer) existing.customer = customer;
      return { session: existing, version: currentVersion(existing) };
    }
    const version = this.#newVersion(merchantId, hash, 1);
    const session: Session = {
      hash,
      merchant_id: merchantId,
      versions: [version],
      created_at: now,
      expires_at: now + LIFETIMES.session,
      ...(customer ? { customer } : {}),
    };
    this.sessions.set(hash, session);
    return { session, version };
  }

  #newVersion(merchantId: string, hash: string, version: number): SessionVersion {
    const uuid = randomUUID();
    this.sessionUuids.set(uuid, hash);
    return { version, uuid, created_at: this.clock.now(merchantId) };
  }

  /**
   * A version's session_id in its merchant's form. With `<hash>|NNN` a session that was never
   * superseded answers its own hash: the session_id "may differ from the queried hash when the
   * session was superseded" (contract, Session), so it must not differ before.
   */
  sessionIdOf(session: Session, version: number): string {
    const merchant = this.merchants.get(session.merchant_id);
    if (merchant?.session_id_form === "uuid") {
      const uuid = session.versions.find((v) => v.version === version)?.uuid;
      if (uuid) return uuid;
    }
    if (version === 1 && session.versions.length === 1) return session.hash;
    return formatSessionId(session.hash, version);
  }

  /** The session_id of the version a trade-in item belongs to. */
  itemSessionId(item: TradeInItem): string {
    const session = this.sessions.get(item.session_hash);
    return session
      ? this.sessionIdOf(session, item.session_version)
      : formatSessionId(item.session_hash, item.session_version);
  }

  /** Session by hash for this merchant, if it exists and has not expired. */
  getSession(merchantId: string, hash: string): Session | undefined {
    const session = this.sessions.get(hash);
    if (!session || session.merchant_id !== merchantId) return undefined;
    if (this.clock.now(merchantId) >= session.expires_at) return undefined;
    return session;
  }

  /**
   * Looks up `<hash>` (current version) or `<hash>|NNN`. An older version is gone (410);
   * an unknown hash, an expired session or a version that never existed is not found (404).
   */
  lookupSession(merchantId: string, sessionIdOrHash: string): SessionLookup {
    const byUuid = UUID.test(sessionIdOrHash) ? this.sessionUuids.get(sessionIdOrHash) : undefined;
    const parsed = byUuid
      ? {
          hash: byUuid,
          version:
            this.sessions.get(byUuid)?.versions.find((v) => v.uuid === sessionIdOrHash)?.version ??
            null,
        }
      : parseSessionId(sessionIdOrHash);
    if (!parsed) return { kind: "not_found" };
    const session = this.getSession(merchantId, parsed.hash);
    if (!session) return { kind: "not_found" };
    const current = currentVersion(session);
    const via = parsed.version === null ? "hash" : "session_id";
    if (parsed.version === null || parsed.version === current.version) {
      return { kind: "ok", session, version: current, current, via };
    }
    if (parsed.version < current.version && parsed.version >= 1) {
      return { kind: "gone", session, current };
    }
    return { kind: "not_found" };
  }

  /**
   * Moves a session to its next version, as a cart change does. The active trade-in item
   * follows the session to the new version. Returns undefined for an unknown session.
   */
  supersedeSession(
    merchantId: string,
    hash: string,
    note = "The session was updated to a new version because the cart changed.",
  ): { session: Session; version: SessionVersion & { note: string } } | undefined {
    const session = this.getSession(merchantId, hash);
    if (!session) return undefined;
    const now = this.clock.now(merchantId);
    // A later version always says why it was made (the SDK's service-purchase-updated message).
    const version = {
      ...this.#newVersion(merchantId, hash, currentVersion(session).version + 1),
      note,
    };
    session.versions.push(version);
    session.expires_at = now + LIFETIMES.session;
    const active = this.sessionTradeIn(merchantId, hash);
    if (active) active.session_version = version.version;
    return { session, version };
  }

  // ---- trade-in items ----

  /** Contract, Valuation validity: expired when "now is after valid_until"; at valid_until
   *  exactly the valuation is still valid. */
  isExpired(item: TradeInItem): boolean {
    return this.clock.now(item.merchant_id) > item.valid_until;
  }

  /**
   * Creates a trade-in item attached to the session's current version (binding the session if
   * needed). An earlier offered or accepted item of the session is cancelled: one active
   * trade-in per session.
   */
  createTradeIn(input: CreateTradeInInput): TradeInItem {
    const { session, version } = this.bindSession(input.merchant_id, input.session_hash);
    for (const other of this.tradeIns.values()) {
      if (
        other.session_hash === session.hash &&
        (other.status === "offered" || other.status === "accepted")
      ) {
        other.status = "cancelled";
      }
    }
    const now = this.clock.now(input.merchant_id);
    const status = input.status ?? "offered";
    const item: TradeInItem = {
      id: this.nextId("ti"),
      merchant_id: input.merchant_id,
      session_hash: session.hash,
      session_version: version.version,
      status,
      value: input.value,
      currency: input.currency,
      device: input.device ?? DEFAULT_DEVICE,
      condition: input.condition ?? { answers: {}, factor: 1 },
      created_at: now,
      valid_until: input.valid_until ?? now + LIFETIMES.valuation,
      ...(status === "accepted" ? { accepted_at: now } : {}),
    };
    this.tradeIns.set(item.id, item);
    return item;
  }

  getTradeIn(id: string): TradeInItem | undefined {
    return this.tradeIns.get(id);
  }

  lookupTradeIn(merchantId: string, id: string): TradeInLookup {
    const item = this.tradeIns.get(id);
    if (!item || item.merchant_id !== merchantId) return { kind: "not_found" };
    if (this.isExpired(item)) return { kind: "gone", item };
    return { kind: "ok", item };
  }

  /** offered → accepted. Returns undefined when the item is missing, expired or not offered. */
  acceptTradeIn(id: string): TradeInItem | undefined {
    const item = this.tradeIns.get(id);
    if (!item || this.isExpired(item)) return undefined;
    if (item.status === "accepted") return item;
    if (item.status !== "offered") return undefined;
    item.status = "accepted";
    item.accepted_at = this.clock.now(item.merchant_id);
    return item;
  }

  /** accepted → used, by the given service order. */
  markTradeInUsed(id: string, orderId: string): TradeInItem | undefined {
    const item = this.tradeIns.get(id);
    if (item?.status !== "accepted") return undefined;
    item.status = "used";
    item.used_at = this.clock.now(item.merchant_id);
    item.used_by_order = orderId;
    return item;
  }

  /** The session's offered or accepted, unexpired trade-in item, if any. */
  activeTradeIn(merchantId: string, hash: string): TradeInItem | undefined {
    let latest: TradeInItem | undefined;
    for (const item of this.tradeIns.values()) {
      if (item.merchant_id !== merchantId || item.session_hash !== hash) continue;
      if (item.status !== "offered" && item.status !== "accepted") continue;
      if (this.isExpired(item)) continue;
      if (!latest || item.created_at >= latest.created_at) latest = item;
    }
    return latest;
  }

  /**
   * The session's offered or accepted item, expired ones included: it follows the session to a
   * new version. (The session look-up shows only an unexpired one, `activeTradeIn`: decision in
   * docs/decisions/expired-valuation-in-session.md.)
   */
  sessionTradeIn(merchantId: string, hash: string): TradeInItem | undefined {
    const latest = this.latestTradeIn(merchantId, hash);
    return latest && (latest.status === "offered" || latest.status === "accepted")
      ? latest
      : undefined;
  }

  /** Whether the shopper ever had a valuation here: in this session, or (by customer id) in
   *  another session of the same merchant. */
  hasValuation(merchantId: string, hash: string, customerId?: string): boolean {
    for (const item of this.tradeIns.values()) {
      if (item.merchant_id !== merchantId) continue;
      if (item.session_hash === hash) return true;
      const owner = customerId ? this.sessions.get(item.session_hash)?.customer?.id : undefined;
      if (owner !== undefined && owner === customerId) return true;
    }
    return false;
  }

  /** The session's latest trade-in item in any state (expired ones included). */
  latestTradeIn(merchantId: string, hash: string): TradeInItem | undefined {
    let latest: TradeInItem | undefined;
    for (const item of this.tradeIns.values()) {
      if (item.merchant_id !== merchantId || item.session_hash !== hash) continue;
      if (!latest || item.created_at >= latest.created_at) latest = item;
    }
    return latest;
  }

  // ---- orders ----

  createOrder(input: CreateOrderInput): Order {
    const now = this.clock.now(input.merchant_id);
    const id = this.nextId("ord");
    const order: Order = {
      id,
      merchant_id: input.merchant_id,
      order_id: input.order_id ?? id,
      cart_id: input.cart_id,
      status: input.status,
      amount: input.amount,
      currency: input.currency,
      trade_in_discount: input.trade_in_discount,
      customer_id: input.customer_id ?? null,
      session_hash: input.session_hash ?? null,
      tradein_item_id: input.tradein_item_id ?? null,
      payment: input.payment,
      cart: input.cart ?? null,
      created_at: now,
      updated_at: now,
      updates: [],
    };
    this.orders.set(id, order);
    return order;
  }

  /** By the merchant's order id or the service id. */
  findOrder(merchantId: string, orderId: string): Order | undefined {
    const byId = this.orders.get(orderId);
    if (byId && byId.merchant_id === merchantId) return byId;
    for (const order of this.orders.values()) {
      if (order.merchant_id === merchantId && order.order_id === orderId) return order;
    }
    return undefined;
  }

  findOrderByCart(merchantId: string, cartId: string): Order | undefined {
    for (const order of this.orders.values()) {
      if (order.merchant_id === merchantId && order.cart_id === cartId) return order;
    }
    return undefined;
  }

  updateOrderStatus(merchantId: string, orderId: string, status: OrderStatus): Order | undefined {
    const order = this.findOrder(merchantId, orderId);
    if (!order) return undefined;
    const now = this.clock.now(merchantId);
    order.status = status;
    order.updated_at = now;
    order.updates.push({ update_type: "status", at: now, status });
    return order;
  }

  /** Records a merchant's order update (the five update types) and its effect on the order. */
  applyOrderUpdate(
    order: Order,
    update: {
      update_type: UpdateType;
      status: OrderStatus;
      items?: OrderItemQuantity[];
      cart?: Cart;
    },
  ): Order {
    const now = this.clock.now(order.merchant_id);
    order.status = update.status;
    order.updated_at = now;
    if (update.cart) {
      order.cart = update.cart;
      order.cart_id = update.cart.id;
      order.amount = update.cart.total;
      order.currency = update.cart.currency;
    }
    order.updates.push({
      update_type: update.update_type,
      at: now,
      status: update.status,
      ...(update.items ? { items: update.items } : {}),
      ...(update.cart ? { cart: update.cart } : {}),
    });
    return order;
  }

  listOrders(merchantId: string, filter: { status?: OrderStatus; limit?: number } = {}): Order[] {
    const out: Order[] = [];
    for (const order of this.orders.values()) {
      if (order.merchant_id !== merchantId) continue;
      if (filter.status && order.status !== filter.status) continue;
      out.push(order);
    }
    // Newest first, so a limit keeps the most recent orders.
    out.sort((a, b) => b.created_at - a.created_at || b.id.localeCompare(a.id));
    return filter.limit === undefined ? out : out.slice(0, filter.limit);
  }

  // ---- registered purchases (idempotency of register-purchase) ----

  /** The order of a purchase already registered for this session and cart, if any. */
  findPurchase(sessionHash: string, cartId: string): Order | undefined {
    const orderId = this.purchases.get(`${sessionHash}|${cartId}`);
    return orderId ? this.orders.get(orderId) : undefined;
  }

  recordPurchase(sessionHash: string, cartId: string, orderId: string): void {
    this.purchases.set(`${sessionHash}|${cartId}`, orderId);
  }

  // ---- persistence (--state FILE) ----

  snapshot(): Snapshot {
    return clone({
      version: 1,
      seed: this.seed,
      counters: this.counters,
      merchants: [...this.merchants.values()],
      access_tokens: [...this.accessTokens.values()],
      refresh_tokens: [...this.refreshTokens.values()],
      sessions: [...this.sessions.values()],
      tradein_items: [...this.tradeIns.values()],
      orders: [...this.orders.values()],
      purchases: [...this.purchases.entries()],
      id_prefix: this.idPrefix,
    });
  }

  restore(snapshot: Snapshot): void {
    this.reset(snapshot.seed);
    this.counters = { ...snapshot.counters };
    if (snapshot.id_prefix !== undefined) this.idPrefix = snapshot.id_prefix;
    this.merchants = new Map(snapshot.merchants.map((m) => [m.id, m]));
    this.accessTokens = new Map(snapshot.access_tokens.map((t) => [t.token, t]));
    this.refreshTokens = new Map(snapshot.refresh_tokens.map((t) => [t.token, t]));
    this.sessions = new Map(snapshot.sessions.map((s) => [s.hash, s]));
    for (const session of this.sessions.values()) {
      for (const version of session.versions) {
        version.uuid ??= randomUUID(); // snapshots written before session_id_form existed
        this.sessionUuids.set(version.uuid, session.hash);
      }
    }
    this.tradeIns = new Map(snapshot.tradein_items.map((t) => [t.id, t]));
    this.orders = new Map(snapshot.orders.map((o) => [o.id, o]));
    this.purchases = new Map(snapshot.purchases);
  }
}

export function currentVersion(session: Session): SessionVersion {
  // versions is never empty: bindSession creates version 1.
  return session.versions[session.versions.length - 1] as SessionVersion;
}
