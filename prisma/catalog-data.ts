// The demo catalog. List prices are what shoppers see (tax included); the seed splits each into
// price before tax and tax in integer cents, so price + tax is exactly the list price.

export const CATEGORIES = [
  { slug: "phones", name: "Phones" },
  { slug: "tablets", name: "Tablets" },
  { slug: "laptops", name: "Laptops" },
  { slug: "audio", name: "Audio" },
] as const;

export type CategorySlug = (typeof CATEGORIES)[number]["slug"];

export interface SeedProduct {
  slug: string;
  name: string;
  category: CategorySlug;
  color: string;
  description: string;
  /** list prices including tax, cents */
  list: { EUR: number; GBP: number };
}

export const PRODUCTS: SeedProduct[] = [
  {
    slug: "aurora-x1",
    name: "Aurora X1",
    category: "phones",
    color: "#2f5d8a",
    description: "6.1-inch OLED phone with a 48 MP camera, 128 GB storage and all-day battery.",
    list: { EUR: 79900, GBP: 69900 },
  },
  {
    slug: "aurora-x1-mini",
    name: "Aurora X1 Mini",
    category: "phones",
    color: "#7a3e6e",
    description: "The X1 in a 5.4-inch body that fits any pocket, 128 GB storage.",
    list: { EUR: 59900, GBP: 52900 },
  },
  {
    slug: "nimbus-pro-5g",
    name: "Nimbus Pro 5G",
    category: "phones",
    color: "#1f6f5c",
    description: "6.7-inch 120 Hz display, triple camera with 5x zoom, 256 GB storage.",
    list: { EUR: 99900, GBP: 87900 },
  },
  {
    slug: "slate-11",
    name: "Slate 11",
    category: "tablets",
    color: "#5a4a9c",
    description: "11-inch tablet with a laminated display, stylus support and 128 GB storage.",
    list: { EUR: 64900, GBP: 56900 },
  },
  {
    slug: "slate-mini-8",
    name: "Slate Mini 8",
    category: "tablets",
    color: "#9c5a2a",
    description: "8.3-inch tablet for reading and notes, 64 GB storage, USB-C.",
    list: { EUR: 42900, GBP: 37900 },
  },
  {
    slug: "vertex-14-air",
    name: "Vertex 14 Air",
    category: "laptops",
    color: "#455a64",
    description: "14-inch ultralight laptop, 16 GB memory, 512 GB SSD, 18-hour battery.",
    list: { EUR: 129900, GBP: 114900 },
  },
  {
    slug: "vertex-16-pro",
    name: "Vertex 16 Pro",
    category: "laptops",
    color: "#263238",
    description: "16-inch performance laptop, 32 GB memory, 1 TB SSD, dedicated graphics.",
    list: { EUR: 219900, GBP: 193900 },
  },
  {
    slug: "nova-chromebook-13",
    name: "Nova Chromebook 13",
    category: "laptops",
    color: "#2e7d32",
    description: "13-inch laptop for school and travel, 8 GB memory, 128 GB storage.",
    list: { EUR: 44900, GBP: 39900 },
  },
  {
    slug: "echo-buds-pro",
    name: "Echo Buds Pro",
    category: "audio",
    color: "#37474f",
    description: "Wireless earbuds with active noise cancelling and a wireless charging case.",
    list: { EUR: 17900, GBP: 15900 },
  },
  {
    slug: "echo-over-ear",
    name: "Echo Over-Ear ANC",
    category: "audio",
    color: "#6d4c41",
    description: "Over-ear headphones with adaptive noise cancelling and 30-hour battery.",
    list: { EUR: 29900, GBP: 26900 },
  },
  {
    slug: "pulse-speaker-go",
    name: "Pulse Speaker Go",
    category: "audio",
    color: "#c62828",
    description: "Waterproof portable speaker with 12-hour battery and a carry strap.",
    list: { EUR: 9900, GBP: 8900 },
  },
  {
    slug: "orbit-soundbar",
    name: "Orbit Soundbar",
    category: "audio",
    color: "#283593",
    description: "Compact soundbar with dialogue boost, HDMI eARC and a wireless subwoofer.",
    list: { EUR: 34900, GBP: 30900 },
  },
];

/** Tax rates in percent used to split list prices (EUR 21 %, GBP 20 %). */
export const TAX_RATE = { EUR: 21, GBP: 20 } as const;

/** list = price + tax; price = round(list / (1 + rate)). Integer cents throughout. */
export function splitListPrice(list: number, ratePercent: number): { price: number; tax: number } {
  const price = Math.round((list * 100) / (100 + ratePercent));
  return { price, tax: list - price };
}

export const DEMO_SHOPPERS = [
  {
    email: "shopper@example.com",
    password: "shopper-demo-password",
    given_name: "Jamie",
    family_name: "Doyle",
    address: {
      given_name: "Jamie",
      family_name: "Doyle",
      phone: "+353 1 555 0142",
      address: "12 Merrion Square",
      city: "Dublin",
      state: "Dublin",
      country_code: "IE",
      postal_code: "D02 XY45",
    },
  },
  {
    email: "alex@example.com",
    password: "alex-demo-password",
    given_name: "Alex",
    family_name: "Morgan",
    address: {
      given_name: "Alex",
      family_name: "Morgan",
      phone: "+44 20 7946 0321",
      address: "221 Baker Street",
      city: "London",
      state: "",
      country_code: "GB",
      postal_code: "NW1 6XE",
    },
  },
];

/**
 * The demo's promotion codes (docs/decisions/discounts.md): one percentage, one fixed amount in
 * euros, one fixed amount with a minimum, and one that has expired. Amounts in cents.
 */
export const PROMOTION_CODES = [
  {
    code: "SAVE10",
    name: "10 % off your items",
    kind: "percent",
    percent: 10,
    amount: null,
    currency: null,
    minimum: null,
    expiresAt: null,
  },
  {
    code: "TENOFF",
    name: "€10 off",
    kind: "amount",
    percent: null,
    amount: 1000,
    currency: "EUR",
    minimum: null,
    expiresAt: null,
  },
  {
    code: "BIG50",
    name: "€50 off items of €500 or more",
    kind: "amount",
    percent: null,
    amount: 5000,
    currency: "EUR",
    minimum: 50000,
    expiresAt: null,
  },
  {
    code: "SUMMER24",
    name: "20 % off (summer 2024)",
    kind: "percent",
    percent: 20,
    amount: null,
    currency: null,
    minimum: null,
    expiresAt: new Date("2024-09-01T00:00:00Z"),
  },
] as const;
