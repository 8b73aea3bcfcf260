// The stubs the docs' fragments are type-checked in (scripts/check-snippets.mjs): what a fragment
// leaves to the reader (the shop's database, its tables, its callbacks), declared with the
// packages' own types, so the fragment's use of the packages is checked and nothing else is
// invented. `before` comes ahead of the fragment, `after` behind it; `files` are modules beside
// it (a relative import of the fragment). A doc marks a fragment with `<!-- snippet: stub=NAME -->`
// on the line before its fence.

/** The shop's own Drizzle tables on PostgreSQL, as the Drizzle adapter's README describes them. */
const DRIZZLE_SHOP = `import type { ShopCallbacks } from "@service-integration/drizzle-adapter";
import { type PgQueries, serviceOrderColumns, serviceSchema } from "@service-integration/drizzle-adapter/pg";
import type { DeliveryCharge, OrderStatusRules, ShopOrder, ShopOrderItem } from "@service-integration/kit";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
const carts = pgTable("carts", {
  id: text("id").primaryKey(),
  sessionId: text("session_id").notNull(),
  createdAt: timestamp("created_at").notNull(),
  checkedOutAt: timestamp("checked_out_at"),
});
const cartLines = pgTable("cart_lines", {
  cartId: text("cart_id").notNull(),
  productId: text("product_id").notNull(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  quantity: integer("quantity").notNull(),
  price: integer("price").notNull(),
  tax: integer("tax").notNull(),
});
const orders = pgTable("orders", {
  id: text("id").primaryKey(),
  number: text("number").notNull().unique(),
  email: text("email").notNull(),
  ...serviceOrderColumns(),
});
const orderLines = pgTable("order_lines", {
  orderId: text("order_id").notNull(),
  productId: text("product_id").notNull(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  url: text("url").notNull(),
  quantity: integer("quantity").notNull(),
  price: integer("price").notNull(),
  tax: integer("tax").notNull(),
});
const myShopTables = { carts, cartLines, orders, orderLines };
declare const shop: ShopCallbacks<PgQueries>;
declare const statuses: OrderStatusRules;
declare const SHIPPING: Record<string, DeliveryCharge>;
declare function orderNumber(): string;
declare function sum<T>(items: T[], of: (item: T) => number): number;
declare function lineOf(line: typeof cartLines.$inferSelect, shopBaseUrl: string): Omit<typeof orderLines.$inferInsert, "orderId">;
declare function methodOf(order: ShopOrder): string;
declare const PAID: Set<string>;
declare const isKnown: OrderStatusRules["isKnown"];
declare const canReach: OrderStatusRules["canReach"];
declare const canTransition: OrderStatusRules["canTransition"];
export type { ShopOrderItem };
export { myShopTables, serviceSchema };`;

export const STUBS = {
  // docs/integrating.md: the conformance suite's host, every member the reader's own.
  "conformance-host": {
    before: `import type { CheckoutDetails, OrderStatusRules, ServiceOrderStore, ServicePayStore, SessionIdentity, ShopCustomer, ShopperIdentity, ShopperSource, TokenStore, TradeInRegistrationStore } from "@service-integration/kit";
declare const servicePay: ServicePayStore, statuses: OrderStatusRules, orders: ServiceOrderStore;
declare const tradeIns: TradeInRegistrationStore, tokens: TokenStore;
declare const identity: SessionIdentity, shopper: ShopperSource;
declare const sessionId: string, details: CheckoutDetails, owes: number, currency: string;
declare const cookie: string, issued: ShopperIdentity, customer: ShopCustomer;
declare function yourTokenRows(): Promise<unknown[]>;
declare function dropTheDatabase(): Promise<void>;
declare function openYourDatabase(): Promise<{ close(): Promise<void> }>;`,
  },
  // The kit's README: the guest identity beside an auth library, in Next's proxy and actions.
  "guest-identity": {
    before: `import { createGuestIdentity } from "@service-integration/kit/server";
import { cookies, headers } from "next/headers";
import type { NextRequest, NextResponse } from "next/server";
declare const auth: { api: { getSession(o: { headers: Headers }): Promise<{ user: { id: string } } | null> } };
declare const request: NextRequest;
declare const response: NextResponse;
declare const userId: string;
declare function moveOpenCart(from: string, to: string): Promise<void>;`,
  },
  // The kit's README: the service's wiring on the Drizzle adapter.
  "kit-wiring": {
    before: `import { connectService, processSingleton, retryDueRegistrations, serviceRouteHandlers, startJobTimer, createNotificationInbox, runScheduledJob } from "@service-integration/kit/server";
import type { CheckoutDetails, OrderStatusRules, SessionIdentity } from "@service-integration/kit";
import type { ShopCallbacks } from "@service-integration/drizzle-adapter";
import { drizzleServiceAdapter, type PgOrdersTable, type PgQueries } from "@service-integration/drizzle-adapter/pg";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as z from "zod";
declare const db: NodePgDatabase;
declare const orders: PgOrdersTable;
declare const shop: ShopCallbacks<PgQueries>;
declare const statuses: OrderStatusRules;
declare const shopBaseUrl: string;
declare const identity: SessionIdentity;
declare const checkoutBody: z.ZodType<CheckoutDetails>;`,
  },
  // The kit's README: the notification inbox beside the wiring above.
  "kit-inbox": {
    before: `import { connectService, createNotificationInbox, processSingleton, runScheduledJob, serviceRouteHandlers } from "@service-integration/kit/server";
import type { CheckoutDetails, SessionIdentity } from "@service-integration/kit";
import type { DrizzleServiceAdapter } from "@service-integration/drizzle-adapter";
import type * as z from "zod";
declare const service: () => ReturnType<typeof connectService<DrizzleServiceAdapter>>;
declare const identity: SessionIdentity;
declare const checkoutBody: z.ZodType<CheckoutDetails>;`,
  },
  // The kit's README: the API client on the reader's token store.
  "kit-client": {
    before: `import { createServiceClient, integrationObserver, readServiceConfig } from "@service-integration/kit/server";
import type { TokenStore } from "@service-integration/kit";
declare const tokenStore: TokenStore;
declare const hash: string;`,
  },
  // The Drizzle adapter's README: its conformance run on PostgreSQL.
  "drizzle-conformance": {
    before: `${DRIZZLE_SHOP.replace(/^export .*$/gm, "")}
import type { ConformanceHost, SeededCart } from "@service-integration/kit/testing";
import type { TokenSealer } from "@service-integration/kit";
import { drizzleServiceAdapter } from "@service-integration/drizzle-adapter/pg";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
declare const sealer: TokenSealer;
declare function seedOpenCart(): Promise<SeededCart>;
declare function persistedTokenText(): Promise<string>;
declare const identity: ConformanceHost["identity"];
declare const issueSession: ConformanceHost["issueSession"];
declare const seedCustomer: ConformanceHost["seedCustomer"];`,
  },
  // The Drizzle adapter's README: the wiring, its orders table above.
  "drizzle-wiring": {
    before: `${DRIZZLE_SHOP.replace(/^export .*$/gm, "")}
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { readServiceConfig } from "@service-integration/kit/server";
const config = readServiceConfig();`,
  },
  // The Drizzle adapter's README: one member of the shop's ShopCallbacks<PgQueries>.
  "drizzle-callback": {
    before: `import { randomUUID } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
${DRIZZLE_SHOP.replace(/^declare const shop: .*$/m, "").replace(/^export .*$/gm, "")}
declare function openCartId(q: PgQueries, sessionId: string): Promise<string | null>;
export const shopMember: Partial<ShopCallbacks<PgQueries>> = {`,
    after: "};",
  },
  // docs/integrating.md, "Write an adapter for your data layer": the kit's suite on an adapter.
  "adapter-conformance": {
    before: `import {
  checkDueSkipsLocked,
  checkFindOrderForLocks,
  type RowLockHost,
  runShopPortsConformance,
  testShopHost,
} from "@service-integration/kit/testing";
import type { ServiceAdapter, ShopCustomer } from "@service-integration/kit";
import { it } from "vitest";
declare function freshTestDatabase(): Promise<{ db: unknown; adapter: ServiceAdapter; close(): Promise<void> }>;
declare function insertCartWithOnePhone(db: unknown, sessionId: string): Promise<void>;
declare function insertCustomer(db: unknown, customer: ShopCustomer): Promise<void>;
declare function tokenRows(db: unknown): Promise<unknown[]>;
declare function rowLockHost(): Promise<RowLockHost>;`,
  },
  // The Kysely adapter's README: a Kysely migration creating the tables from the shipped SQL.
  "kysely-migration": {
    before: `import { type Kysely, sql } from "kysely";
import { serviceOrderColumnsSql, serviceTablesSql } from "@service-integration/kysely-adapter/pg";`,
  },
  // The Kysely adapter's README: the wiring on PostgreSQL.
  "kysely-wiring": {
    before: `import type { ShopCallbacks } from "@service-integration/kysely-adapter";
import { kyselyServiceAdapter } from "@service-integration/kysely-adapter/pg";
import { createTokenSealer, readServiceConfig } from "@service-integration/kit/server";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
interface ShopDatabase { orders: { id: string; number: string; status: string } }
declare const shop: ShopCallbacks<Kysely<ShopDatabase>>;
const config = readServiceConfig();`,
  },
  // The Prisma adapter's README: the wiring on the reader's generated client.
  "prisma-wiring": {
    before: `import type { ServiceClient, ServiceModels, ShopCallbacks } from "@service-integration/prisma-adapter";
type Tx = ServiceModels;
declare const prisma: Tx & ServiceClient<Tx>;
declare const shop: ShopCallbacks<Tx>;`,
  },
  // The Prisma adapter's README: members of the shop's ShopCallbacks<Tx>. The shop's own models
  // (cart, cartLine, order, orderLine) come from the reader's generated client, which this check
  // does not generate: they are untyped here; the callbacks' signatures and results are checked.
  "prisma-callbacks": {
    before: `import type { ServiceModels, ShopCallbacks } from "@service-integration/prisma-adapter";
import type { DeliveryCharge, OrderStatusRules, ShopCartLines, ShopCustomer, ShopOrderItem } from "@service-integration/kit";
// biome-ignore lint/suspicious/noExplicitAny: the reader's generated models
type Model = any;
type Tx = ServiceModels & { cart: Model; cartLine: Model; order: Model; orderLine: Model };
declare const SHIPPING: Record<string, DeliveryCharge & { id: string }>;
declare function orderNumber(): string;
declare function sum(items: Model[], of: (item: Model) => number): number;
declare function lineOf(line: Model): Model;
declare function deliveryOf(orderId: string, currency: string, price: number): DeliveryCharge;
declare const PAID: Set<string>;
declare const isKnown: OrderStatusRules["isKnown"];
declare const canReach: OrderStatusRules["canReach"];
declare const canTransition: OrderStatusRules["canTransition"];
declare function customerById(id: string): Promise<ShopCustomer | null>;
declare function cartLines(sessionId: string, base: string): Promise<ShopCartLines | null>;
export type { ShopOrderItem };
export const shop: ShopCallbacks<Tx> = {`,
    after: "};",
  },
  // The emulator's README: the go-live journeys with the reader's own database module.
  "go-live-example": {
    before: "",
    files: {
      "my-shop-db.ts": `import type { Page } from "@playwright/test";
export declare function readOrder(number: string): Promise<{ totalCents: number; discountCents: number; status: string } | undefined>;
export declare function readSession(page: Page): Promise<{ sessionId: string; salt: string } | null>;
`,
    },
  },
};
