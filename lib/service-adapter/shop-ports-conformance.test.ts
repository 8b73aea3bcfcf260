import { randomUUID } from "node:crypto";
import {
  type ConformanceHost,
  oneDatabasePerSuite,
  runShopPortsConformance,
} from "@service-integration/kit/testing";
import { createDbClient } from "@/lib/db/client";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";
import { shippingPrice } from "@/lib/shop/shipping";
import { leftInDatabase, openSuiteDatabase } from "@/test-support/test-db";
import {
  CHECKOUT,
  newSession,
  SHOPPER_ADDRESS,
  seedCustomer,
  sessionCookie,
  TEST_ENV,
} from "@/test-support/test-shop";
import { shopSessionIdentity } from "./request-session";
import { serviceAdapter } from "./service";
import { shopOrderStatuses } from "./shop-callbacks";

// This shop's callbacks on @service-integration/prisma-adapter against the kit's conformance
// suite: one database for the file, migrated with the shop's own migrations (SQLite; PostgreSQL
// with TEST_DATABASE=postgresql) and emptied between checks, so each check starts on empty tables. The package runs the suite on its own test shop;
// this run proves the shop's wiring (its statuses, its cart → order, its lines, its shoppers).

// The callbacks and the token store read the shop's settings (base URL, SERVICE_TOKEN_KEY).
Object.assign(process.env, TEST_ENV, { DATABASE_URL: process.env.DATABASE_URL ?? "file:unused" });

const PRICE = 10_000;
const TAX = 2_300;

async function prismaHost(url: string): Promise<ConformanceHost> {
  const db = createDbClient(url);
  const category = await db.category.create({ data: { slug: "phones", name: "Phones" } });
  const product = await db.product.create({
    data: {
      slug: "phone",
      name: "Phone",
      description: "A phone",
      image: "/products/phone.svg",
      categoryId: category.id,
      prices: { create: [{ currency: "EUR", price: PRICE, tax: TAX }] },
    },
  });
  const details = serviceCheckoutSchema.parse(CHECKOUT);
  const adapter = serviceAdapter(db);
  return {
    servicePay: adapter.servicePay,
    statuses: shopOrderStatuses,
    orders: adapter.orders,
    tradeIns: adapter.tradeIns,
    tokens: adapter.tokens,
    identity: shopSessionIdentity,
    shopper: adapter.shopper,
    async issueSession(customerId) {
      // The sealed shop_session cookie, as the proxy issues it and sign-in keeps it.
      const identity = newSession(customerId);
      return { cookie: await sessionCookie(identity), identity };
    },
    async seedCustomer() {
      const row = await seedCustomer(db);
      return {
        id: row.id,
        email: row.email,
        givenName: row.given_name,
        familyName: row.family_name,
        address: SHOPPER_ADDRESS,
      };
    },
    recordTradeInSeen: (sessionId, tradeInId) => adapter.noteTradeInSeen(sessionId, tradeInId),
    async seedOpenCart() {
      const sessionId = randomUUID();
      await db.cart.create({
        data: {
          sessionId,
          currency: "EUR",
          items: { create: [{ productId: product.id, quantity: 1 }] },
        },
      });
      return {
        sessionId,
        details,
        owes: PRICE + TAX + shippingPrice(CHECKOUT.shipping_method, "EUR"),
        currency: "EUR",
      };
    },
    async persistedTokenText() {
      return JSON.stringify(await db.serviceToken.findMany());
    },
    close: () => db.$disconnect(),
  };
}

runShopPortsConformance(
  oneDatabasePerSuite({
    open: () => openSuiteDatabase("conformance-"),
    // Every check starts on the database as the migrations left it, nothing of the checks before
    // (the suite's checks write every table between them): checked after each emptying, so an
    // emptying that misses a table fails the next check.
    async empty(database) {
      await database.empty();
      const left = Object.entries(await leftInDatabase(database.url)).filter(([, n]) => n > 0);
      if (left.length > 0)
        throw new Error(
          `the emptying between checks left ${JSON.stringify(Object.fromEntries(left))}`,
        );
    },
    dispose: (database) => database.dispose(),
    host: (database) => prismaHost(database.url),
  }),
  "the shop's Prisma adapter",
);
