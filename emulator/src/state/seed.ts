import type { Catalog, ConditionQuestion, Merchant, Seed } from "../domain";

// The deterministic seed. The storefront's .env.example and the e2e suite rely on these ids,
// credentials and minimums: change them only together with those (see emulator/README.md).

// The seed merchants' storefront (its origins and webhook base); `seedForShop` moves it (the
// emulator's --shop-url / EMULATOR_SHOP_URL: a second test stack, a load balancer).
const SHOP = new URL("http://localhost:3000");
const ORIGINS = [SHOP.origin, `${SHOP.protocol}//127.0.0.1${SHOP.port ? `:${SHOP.port}` : ""}`];
const WEBHOOK_BASE = `${SHOP.origin}/api/service/webhooks`;

const QUESTIONS: ConditionQuestion[] = [
  {
    id: "powers_on",
    text: "Does the device switch on and work normally?",
    categories: ["phones", "tablets", "laptops", "audio"],
    answers: [
      { id: "yes", label: "Yes, it works normally", factor: 1 },
      { id: "no", label: "No, it does not switch on", factor: 0.2 },
    ],
  },
  {
    id: "screen",
    text: "What condition is the screen in?",
    categories: ["phones", "tablets", "laptops"],
    answers: [
      { id: "flawless", label: "Flawless", factor: 1 },
      { id: "scratched", label: "Light scratches", factor: 0.85 },
      { id: "cracked", label: "Cracked", factor: 0.4 },
    ],
  },
  {
    id: "body",
    text: "What condition is the body in?",
    categories: ["phones", "tablets", "laptops", "audio"],
    answers: [
      { id: "as_new", label: "As new", factor: 1 },
      { id: "worn", label: "Signs of use", factor: 0.85 },
      { id: "damaged", label: "Dents or cracks", factor: 0.6 },
    ],
  },
  {
    id: "battery",
    text: "How healthy is the battery?",
    categories: ["phones", "tablets", "laptops"],
    answers: [
      { id: "good", label: "Above 85 %", factor: 1 },
      { id: "fair", label: "70 % to 85 %", factor: 0.9 },
      { id: "poor", label: "Below 70 %", factor: 0.75 },
    ],
  },
  {
    id: "accessories",
    text: "Are the original accessories included?",
    categories: ["audio"],
    answers: [
      { id: "complete", label: "Yes, all of them", factor: 1 },
      { id: "partial", label: "Some or none", factor: 0.9 },
    ],
  },
];

const CATALOG: Catalog = {
  categories: [
    { id: "phones", name: "Phones" },
    { id: "tablets", name: "Tablets" },
    { id: "laptops", name: "Laptops" },
    { id: "audio", name: "Audio" },
  ],
  models: [
    {
      id: "phone-aurora-15",
      category: "phones",
      brand: "Aurora",
      name: "Aurora 15",
      base_prices: { EUR: 42000, GBP: 36000 },
    },
    {
      id: "phone-aurora-14",
      category: "phones",
      brand: "Aurora",
      name: "Aurora 14",
      base_prices: { EUR: 30000, GBP: 26000 },
    },
    {
      id: "phone-nimbus-8",
      category: "phones",
      brand: "Nimbus",
      name: "Nimbus 8",
      base_prices: { EUR: 24000, GBP: 21000 },
    },
    {
      id: "phone-nimbus-7a",
      category: "phones",
      brand: "Nimbus",
      name: "Nimbus 7a",
      base_prices: { EUR: 9000, GBP: 8000 },
    },
    {
      id: "tablet-slate-pro",
      category: "tablets",
      brand: "Slate",
      name: "Slate Pro 12",
      base_prices: { EUR: 55000, GBP: 48000 },
    },
    {
      id: "tablet-slate-mini",
      category: "tablets",
      brand: "Slate",
      name: "Slate Mini",
      base_prices: { EUR: 18000, GBP: 15500 },
    },
    {
      id: "laptop-vertex-14",
      category: "laptops",
      brand: "Vertex",
      name: "Vertex Book 14",
      base_prices: { EUR: 80000, GBP: 70000 },
    },
    {
      id: "laptop-vertex-air",
      category: "laptops",
      brand: "Vertex",
      name: "Vertex Air 13",
      base_prices: { EUR: 52000, GBP: 45000 },
    },
    {
      id: "audio-echo-buds",
      category: "audio",
      brand: "Echo",
      name: "Echo Buds 2",
      base_prices: { EUR: 6000, GBP: 5200 },
    },
    {
      id: "audio-echo-max",
      category: "audio",
      brand: "Echo",
      name: "Echo Max headphones",
      base_prices: { EUR: 21000, GBP: 18500 },
    },
  ],
  questions: QUESTIONS,
};

/** The public docs' forms where they and the contract differ (README: fidelity table). */
export const SESSION_DEFAULTS = {
  session_versioning: "as_is",
  session_id_form: "hash_version",
  tradein_item_form: "object",
} as const satisfies Pick<Merchant, "session_versioning" | "session_id_form" | "tradein_item_form">;

/** A seed merchant selling in EUR from the local storefront (its origins and webhook base). */
function merchant(identity: Pick<Merchant, "id" | "name" | "products">): Merchant {
  return {
    ...identity,
    currency: "EUR",
    // Demo shop prices run from about 30 to 1500: under 50 no trade-in at all
    // (cart_below_limit), 50 to 199.99 trade-in with other methods only (other_ok),
    // from 200 everything (tradein_valid).
    minimums: { tradein: 5000, ep1: 20000 },
    allowed_origins: ORIGINS,
    webhook_base: WEBHOOK_BASE,
    webhook_form: "flat",
    ...SESSION_DEFAULTS,
  };
}

export const SEED: Seed = {
  merchants: [
    merchant({ id: "m_demo", name: "Demo Electronics", products: "valuations+ep1" }),
    merchant({ id: "m_basic", name: "Basic Gadgets", products: "valuations" }),
  ],
  users: [
    {
      id: "u_demo_admin",
      merchant_id: "m_demo",
      username: "merchant-admin",
      password: "merchant-password",
      scopes: ["core", "payments", "valuations", "updates"],
    },
    {
      id: "u_basic_admin",
      merchant_id: "m_basic",
      username: "basic-admin",
      password: "basic-password",
      // No `updates`: asking for it fails with invalid_scope, and a token without it gets 403
      // from the order update endpoint.
      scopes: ["core", "payments", "valuations"],
    },
  ],
  clients: [
    { client_id: "demo-client", client_secret: "demo-client-secret", merchant_id: "m_demo" },
    { client_id: "basic-client", client_secret: "basic-client-secret", merchant_id: "m_basic" },
  ],
  catalog: CATALOG,
};

/**
 * The seed for a storefront at another address than http://localhost:3000 (`--shop-url`): the
 * merchants allow its origin and send their webhooks to it. A second browser-test stack uses it.
 */
export function seedForShop(shopUrl: string): Seed {
  const origin = new URL(shopUrl).origin;
  const origins = [...new Set([origin, origin.replace("//localhost", "//127.0.0.1")])];
  return {
    ...SEED,
    merchants: SEED.merchants.map((m) => ({
      ...m,
      allowed_origins: origins,
      webhook_base: `${origin}/api/service/webhooks`,
    })),
  };
}
