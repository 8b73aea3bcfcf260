// The emulator's domain: plain data types shared by the state store, the service API routes,
// the browser SDK's routes and the webhook dispatcher. Names follow the contract's words.
// Every amount is an integer number of cents (contract, "What the service does" §5).

export type Cents = number;
/** ISO 4217 code, upper case (e.g. "EUR"). */
export type Currency = string;
/** Emulator clock time in epoch milliseconds. */
export type Millis = number;

export const SCOPES = ["core", "payments", "valuations", "updates"] as const;
export type Scope = (typeof SCOPES)[number];

/** `valuations` = trade-in with other payment methods only; `valuations+ep1` adds Service Pay. */
export type Products = "valuations" | "valuations+ep1";

/** Shape of the order webhook body (contract: "One form of webhook body wraps cart_id and status inside a `data` object"). */
export type WebhookForm = "flat" | "wrapped";

export interface MerchantMinimums {
  /** Below this cart total a trade-in cannot be used at all → template `cart_below_limit`. */
  tradein: Cents;
  /** Below this cart total Service Pay cannot be used, other methods can → template `other_ok`. */
  ep1: Cents;
}

/**
 * How a superseded session is re-queried (contract: States › Session version). `as_is` (the
 * public docs' reading, the default): the returned session_id is queried again exactly as
 * returned. `regenerate` (the contract's wording): the caller regenerates the session hash from
 * the new session_id, so the path takes a session hash only, never a `<hash>|NNN` session_id.
 */
export type SessionVersioning = "as_is" | "regenerate";

/** `hash_version`: `<session_hash>|NNN` (the contract). `uuid`: an opaque id per version (the
 *  public docs' example). */
export type SessionIdForm = "hash_version" | "uuid";

/** `object`: the whole item (the contract). `id`: the item's id as a string (the public docs). */
export type TradeInItemForm = "object" | "id";

export interface Merchant {
  id: string;
  name: string;
  products: Products;
  currency: Currency;
  minimums: MerchantMinimums;
  /** Browser origins allowed to call the SDK-to-service routes (CORS). */
  allowed_origins: string[];
  /** `{merchant_webhook_base}`; the order webhook goes to `${webhook_base}/order`. */
  webhook_base: string;
  webhook_form: WebhookForm;
  session_versioning: SessionVersioning;
  session_id_form: SessionIdForm;
  tradein_item_form: TradeInItemForm;
}

export interface ApiUser {
  id: string;
  merchant_id: string;
  username: string;
  password: string;
  /** Scopes this user may be granted. */
  scopes: Scope[];
}

export interface OAuthClient {
  client_id: string;
  client_secret: string;
  merchant_id: string;
}

export interface AccessToken {
  token: string;
  client_id: string;
  user_id: string;
  merchant_id: string;
  scopes: Scope[];
  expires_at: Millis;
}

export interface RefreshToken extends AccessToken {
  /** Set once the token was used: refresh tokens rotate (see README, fidelity table). */
  revoked: boolean;
}

export interface Customer {
  id: string;
  email?: string;
  given_name?: string;
  family_name?: string;
}

/** One version of a service session; the session_id is `<session_hash>|NNN`. */
export interface SessionVersion {
  version: number;
  /** The version's opaque session_id when the merchant's `session_id_form` is `uuid`. */
  uuid: string;
  created_at: Millis;
  /** Set when this version replaced an earlier one (cart change). */
  note?: string;
}

export interface Session {
  /** The session hash as the merchant sends it (HMAC-SHA256 hex). */
  hash: string;
  merchant_id: string;
  versions: SessionVersion[];
  customer?: Customer;
  created_at: Millis;
  /** Sessions expire (404) when not bound again before this time. */
  expires_at: Millis;
}

/**
 * Trade-in item lifecycle (contract names only `accepted`; the rest is the emulator's choice):
 * offered → accepted → used (by a registered purchase or a Service Pay payment);
 * offered|accepted → cancelled (a newer valuation replaced it). Expiry is not a status:
 * it is derived from `valid_until` on every read (410 after it).
 */
export type TradeInStatus = "offered" | "accepted" | "used" | "cancelled";

export interface TradeInDevice {
  category: string;
  model_id: string;
  brand: string;
  name: string;
}

export interface TradeInCondition {
  /** question id → answer id, as chosen in the valuation wizard. */
  answers: Record<string, string>;
  /** Product of the chosen answers' factors (1 = as new). */
  factor: number;
}

export interface TradeInItem {
  id: string;
  merchant_id: string;
  session_hash: string;
  /** The session version the item was created in (for the session_id it reports). */
  session_version: number;
  status: TradeInStatus;
  value: Cents;
  currency: Currency;
  device: TradeInDevice;
  condition: TradeInCondition;
  created_at: Millis;
  accepted_at?: Millis;
  used_at?: Millis;
  valid_until: Millis;
  /** Order that used this trade-in (service order id). */
  used_by_order?: string;
}

export const ORDER_STATUSES = [
  "pending",
  "payment_completed",
  "completed",
  "partially_shipped",
  "shipped",
  "partially_returned",
  "returned",
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const UPDATE_TYPES = [
  "shipped",
  "returned",
  "partial_shipment",
  "partial_return",
  "cart_update",
] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];

export interface Discount {
  id: string;
  name: string;
  total: Cents;
}

export interface CartItem {
  id: string;
  name: string;
  description: string;
  url: string;
  quantity: number;
  price: Cents;
  tax: Cents;
  total: Cents;
}

export interface Cart {
  id: string;
  currency: Currency;
  items: CartItem[];
  price: Cents;
  tax: Cents;
  discounts?: Discount[];
  total: Cents;
}

export interface OrderItemQuantity {
  id: string;
  quantity: number;
}

export interface OrderUpdate {
  update_type: UpdateType | "status";
  at: Millis;
  status: OrderStatus;
  items?: OrderItemQuantity[];
  cart?: Cart;
}

/** How the order was paid: Service Pay (`ep1`) or the merchant's own method (`other`). */
export type PaymentPath = "ep1" | "other";

export interface Order {
  /** Service-side id. */
  id: string;
  merchant_id: string;
  /** The merchant's order id (the id the merchant quotes in updates). */
  order_id: string;
  cart_id: string;
  status: OrderStatus;
  amount: Cents;
  currency: Currency;
  trade_in_discount: Cents;
  customer_id: string | null;
  session_hash: string | null;
  tradein_item_id: string | null;
  payment: PaymentPath;
  cart: Cart | null;
  created_at: Millis;
  updated_at: Millis;
  updates: OrderUpdate[];
}

// ---- device catalog for the valuation wizard ----

export interface CatalogCategory {
  id: string;
  name: string;
}

export interface CatalogModel {
  id: string;
  category: string;
  brand: string;
  name: string;
  /** Value of the device as new, in cents, per currency. */
  base_prices: Record<Currency, Cents>;
}

export interface ConditionAnswer {
  id: string;
  label: string;
  /** Multiplier applied to the base price. */
  factor: number;
}

export interface ConditionQuestion {
  id: string;
  text: string;
  /** Categories this question is asked for. */
  categories: string[];
  answers: ConditionAnswer[];
}

export interface Catalog {
  categories: CatalogCategory[];
  models: CatalogModel[];
  questions: ConditionQuestion[];
}

export interface Seed {
  merchants: Merchant[];
  users: ApiUser[];
  clients: OAuthClient[];
  catalog: Catalog;
}
