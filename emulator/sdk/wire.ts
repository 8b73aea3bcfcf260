// Shapes exchanged between the browser SDK and the emulator's SDK routes (emulator/src/sdk-api).
// These routes are the service's private SDK-to-service protocol, not part of the contract; the
// merchant never calls them. Both sides import this file so the protocol is written down once.

export type Customer = {
  id: string;
  email: string;
  given_name?: string;
  family_name?: string;
};

/** Shopper data as the merchant's `shopper_data` callback answers it (contract: Shopper data). */
export type ShopperData = {
  customer: Customer;
  session_hash_token: string;
};

export type CartItem = {
  id: string;
  name: string;
  description?: string;
  url?: string;
  quantity: number;
  price: number;
  tax: number;
  total: number;
};

export type Cart = {
  id: string;
  currency: string;
  items: CartItem[];
  price: number;
  tax: number;
  discounts?: { id: string; name: string; total: number }[];
  total: number;
};

/** Purchase data as the merchant's `purchase_data` callback answers it (contract: Purchase data). */
export type PurchaseData = {
  purchase: {
    cart: Cart;
    billing?: unknown;
    shipping?: unknown;
    customer?: { id: string; email: string };
  } | null;
};

/** The trade-in as the SDK shows it. Money in integer cents. */
export type TradeInView = {
  id: string;
  device: string;
  value: number;
  currency: string;
  valid_until: string;
  status: string;
};

export type CatalogQuestion = {
  id: string;
  text: string;
  options: { id: string; label: string }[];
};

export type CatalogModel = {
  id: string;
  name: string;
  /** Set on magic test models: what outcome the model forces (see the emulator README). */
  test?: string;
  questions: CatalogQuestion[];
};

export type CatalogCategory = { id: string; name: string; models: CatalogModel[] };

export type InitRequest = {
  merchant_id: string;
  session_hash: string | null;
  customer: Customer | null;
};

export type InitResponse = {
  /** The emulator clock's now (ISO), so the SDK can judge `valid_until` against service time. */
  now: string;
  merchant_currency: string;
  session_id: string | null;
  tradein: TradeInView | null;
  /** The shopper had a valuation before (this session or, by customer id, another): a
   *  valuation started now is not a new user's (`service-new-user-valuation-started`). */
  earlier_valuation: boolean;
};

/** POST /sdk/v1/observations/session: the token every observation of this page carries. */
export type ObservationSessionResponse = { observation_token: string };

/** What the SDK reports of the merchant's page: its session's token and a number of its own,
 *  each used once. */
export type ObservationStamp = { merchant_id: string; token: string; seq: number };

export type CatalogResponse = { categories: CatalogCategory[] };

export type ValuationRequest = {
  merchant_id: string;
  session_hash: string;
  model_id: string;
  answers: Record<string, string>;
};

export type AcceptRequest = { merchant_id: string; session_hash: string };

/** A cart observation: the service keeps the last cart it saw per session (contract: Session version). */
export type SessionUpdate =
  | { session_id: string; updated: false }
  | {
      session_id: string;
      /** This cart differs from the one the session saw last, so the session moved on. */
      updated: true;
      /** Why, in the service's words: the service-purchase-updated event's message. */
      note: string;
    };

export type PurchaseRequest = {
  merchant_id: string;
  session_hash: string;
  purchase: PurchaseData["purchase"];
};

export type PaymentOptionMode =
  | "unavailable"
  | "tradein_valid"
  | "tradein_missing"
  | "tradein_invalid";

export type PaymentOptionDetails = {
  mode: PaymentOptionMode;
  template_name: string;
  label: string;
  info: string;
  extra?: string;
  data?: {
    valuation: number | null;
    tradein: string | null;
    minimum: number | null;
    tradein_currency: string | null;
    cart_currency: string | null;
  };
};

export type PaymentOptionRequest = {
  /** `payment` when the payment modal opens: the purchase is then checked as a payment's. */
  purpose?: "details" | "payment";
  merchant_id: string;
  session_hash: string | null;
  products: string;
  locale: string;
  purchase: PurchaseData["purchase"];
};

export type PaymentOptionResponse = {
  details: PaymentOptionDetails;
  session: SessionUpdate | null;
};

export type PayMethod = "card" | "bank_transfer";

export type StartPaymentRequest = {
  merchant_id: string;
  session_hash: string;
  method: PayMethod;
  purchase: PurchaseData["purchase"];
};

export type StartPaymentResponse = {
  order_id: string;
  cart_id: string;
  amount: number;
  currency: string;
  trade_in_discount: number;
  status: string;
};

export type CompletePaymentRequest = { merchant_id: string; session_hash: string };

export type CompletePaymentResponse = { order_id: string; cart_id: string; status: string };

export type ErrorBody = { error: string; error_description: string };
