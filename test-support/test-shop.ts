import {
  createServicePayOrder,
  signWebhookBody,
  webhookSecret,
} from "@service-integration/kit/server";
import { openPaymentWindow } from "@service-integration/kit/testing";
import { sealData } from "iron-session";
import { afterAll, beforeAll } from "vitest";
import type { PrismaClient } from "@/lib/db/generated/client";
import {
  getNotificationInbox,
  orderWriter,
  serviceAdapter,
  servicePayDeps,
} from "@/lib/service-adapter/service";
import { SESSION_COOKIE } from "@/lib/session/session-data";
import { rememberSealedCookie } from "@/lib/session/unsealed-cookie";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";
import { TEST_ADDRESS } from "./checkout";
import { createTestDb, TEST_ENV } from "./test-db";

/**
 * Test-only: a temporary SQLite file migrated with the project's own migrations, installed as
 * the app's database (`getDb()`), plus helpers to seed a shop, seal a session cookie and sign a
 * webhook. Lets the route handlers be called with real `Request` objects, as Next calls them.
 */

/** The integration's writer of order history, for the shop's own tests (lib/shop takes it as
 *  an argument and may not import the integration itself). */
export { orderWriter, TEST_ENV };

export const IDENTITY = { userId: "user-7", merchantId: "merchant-42" };
export const SECRET = webhookSecret(IDENTITY);

export interface TestShop {
  db: PrismaClient;
  cleanup: () => Promise<void>;
}

/** Call in beforeAll, before any handler runs (getConfig and getDb read the environment once). */
export async function createTestShop(env: Record<string, string> = {}): Promise<TestShop> {
  const { db, cleanup } = await createTestDb(env);
  // Saved by the shop's token store (sealed under SERVICE_TOKEN_KEY of TEST_ENV), so the
  // handlers read it.
  await serviceAdapter(db).tokens.save({
    accessToken: "a",
    refreshToken: "r",
    ...IDENTITY,
    scope: "core payments valuations updates",
    accessExpiresAt: new Date(Date.now() + 3_600_000),
  });
  return { db, cleanup };
}

/** Test-only: `order` with its status history (the Prisma adapter's OrderStatusChange rows of
 *  the order, oldest first), as the shop's pages read it. */
export async function withHistory<T extends { id: string }>(db: PrismaClient, order: T) {
  const history = await db.orderStatusChange.findMany({
    where: { orderId: order.id },
    orderBy: { createdAt: "asc" },
  });
  return { ...order, history };
}

/**
 * Registers beforeAll/afterAll that create the test shop and seed its products; read `db` and
 * `products` inside tests (they are set once beforeAll has run).
 */
export function setUpTestShop(env: Record<string, string> = {}) {
  const shop = {} as TestShop & { products: Awaited<ReturnType<typeof seedProducts>> };
  beforeAll(async () => {
    Object.assign(shop, await createTestShop(env));
    shop.products = await seedProducts(shop.db);
  });
  afterAll(async () => {
    // The webhook applies what it stored after answering (store-then-apply): let that finish
    // before the database goes, or its writes would outlive the test file.
    await getNotificationInbox().idle();
    await shop.cleanup();
  });
  return shop;
}

let counter = 0;
const hex64 = (n: number, c: string) => `${c.repeat(56)}${String(n).padStart(8, "0")}`;

/** A product priced in EUR: 100.00 + 23.00 tax and 19.99 + 4.60 tax. */
async function seedProducts(db: PrismaClient) {
  const category = await db.category.create({ data: { slug: `c${++counter}`, name: "Phones" } });
  const make = (slug: string, price: number, tax: number) =>
    db.product.create({
      data: {
        slug: `${slug}-${counter}`,
        name: slug,
        description: `${slug} description`,
        image: `/products/${slug}.svg`,
        categoryId: category.id,
        prices: { create: [{ currency: "EUR", price, tax }] },
      },
    });
  return { phone: await make("phone", 10000, 2300), cable: await make("cable", 1999, 460) };
}

export interface TestSession {
  sessionId: string;
  salt: string;
  customerId?: string;
}

/** A fresh session identity (64 hex digits each, as the proxy makes them). */
export function newSession(customerId?: string): TestSession {
  counter += 1;
  return {
    sessionId: hex64(counter, "a"),
    salt: hex64(counter, "b"),
    ...(customerId ? { customerId } : {}),
  };
}

/** The session's cookie, sealed as the proxy seals it: kept in the process's memory of cookies
 *  sealed lately, so the route it reaches reads it as after the proxy (proxy-session.ts). */
export async function sessionCookie(session: TestSession): Promise<string> {
  const sealed = await sealData(session, {
    password: TEST_ENV.SESSION_SECRET,
    ttl: 60 * 60 * 24 * 30,
  });
  rememberSealedCookie(sealed, session);
  return `${SESSION_COOKIE}=${sealed}`;
}

/** The address of every seeded customer, and the billing address of `CHECKOUT`. */
export const SHOPPER_ADDRESS = TEST_ADDRESS;

export async function seedCustomer(db: PrismaClient) {
  counter += 1;
  return db.customer.create({
    data: {
      email: `ada${counter}@example.com`,
      passwordHash: "scrypt$00$00",
      given_name: "Ada",
      family_name: "Lovelace",
      address: { create: SHOPPER_ADDRESS },
    },
  });
}

export async function seedCart(
  db: PrismaClient,
  sessionId: string,
  lines: { productId: string; quantity: number }[],
) {
  return db.cart.create({
    data: { sessionId, currency: "EUR", items: { create: lines } },
  });
}

/** `count` new sessions, each with an open EUR cart of `lines`: two statements for them all, so
 *  a test of many shoppers spends its time on what it tests, not on making carts. */
export async function seedCartSessions(
  db: PrismaClient,
  count: number,
  lines: { productId: string; quantity: number }[],
): Promise<string[]> {
  const sessionIds = Array.from({ length: count }, () => newSession().sessionId);
  const carts = await db.cart.createManyAndReturn({
    data: sessionIds.map((sessionId) => ({ sessionId, currency: "EUR" })),
    select: { id: true },
  });
  await db.cartItem.createMany({
    data: carts.flatMap((cart) => lines.map((line) => ({ ...line, cartId: cart.id }))),
  });
  return sessionIds;
}

export const CHECKOUT = {
  email: "ada@example.com",
  billing: SHOPPER_ADDRESS,
  shipping_method: "express",
} as const;

export function jsonRequest(url: string, body: unknown, cookie?: string): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** The Service Pay page's ready-to-place-order call for `cartId`, with the `CHECKOUT` details. */
/**
 * What the checkout page and the SDK do before ready-to-place-order: the payment starts for the
 * session's open cart (its details kept, unless they already are) and the payment modal reads
 * purchase_data, which keeps what the service is asked to collect. The pending order is made only
 * when it owes that (packages/kit/src/pending-order.ts). Gives the Cart purchase_data showed.
 */
export function openPayment(session: TestSession) {
  return openPaymentWindow(
    serviceAdapter(),
    { sessionId: session.sessionId, details: serviceCheckoutSchema.parse(CHECKOUT) },
    "http://shop.test",
  );
}

export function pendingOrderRequest(cartId: string, cookie: string): Request {
  return jsonRequest(
    "http://shop.test/api/service/pending-order",
    { cart_id: cartId, ...CHECKOUT },
    cookie,
  );
}

/** A delivery as the service sends it: the exact bytes and their signature. */
export function webhookRequest(
  body: string | Record<string, unknown>,
  options: { signature?: string | null; secret?: string } = {},
): Request {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const bytes = new TextEncoder().encode(text);
  const signature =
    options.signature === undefined
      ? signWebhookBody(bytes, options.secret ?? SECRET)
      : options.signature;
  return new Request("http://shop.test/api/service/webhooks/order", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(signature !== null ? { "x-service-signature": signature } : {}),
    },
    body: bytes,
  });
}

/** A pending Service Pay order of a new session's one-phone cart, as ready-to-place-order
 *  creates it (no valuation looked up); for the webhook's apply to find. */
export async function seedPendingServicePayOrder(
  shop: Pick<TestShop, "db"> & { products: Awaited<ReturnType<typeof seedProducts>> },
) {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
  ]);
  const order = await servicePayDeps().store.transaction((tx) =>
    createServicePayOrder(tx, {
      status: "pending",
      sessionId: session.sessionId,
      customerId: null,
      details: serviceCheckoutSchema.parse(CHECKOUT),
      valuation: {
        valuationState: "unknown",
        valuationItemId: null,
        valuationValue: null,
        valuationCurrency: null,
        valuationNote: "not looked up in this test",
      },
      shopBaseUrl: "http://shop.test",
      note: "created by the test",
    }),
  );
  if (!order) throw new Error("no order");
  return { cartId: cart.id, order };
}
