import "server-only";
import { randomBytes } from "node:crypto";
import { cache } from "react";
import { getConfig } from "@/lib/config";
import { getDb, type Tx } from "@/lib/db/client";
import { shopNow } from "@/lib/service-adapter/shop-clock";
import { buildCartView, type CartRow, type CartView } from "./cart-view";
import type { Currency } from "./money";
import { judgePromotion, MAX_PROMOTION_CODES, type PromotionRule } from "./promotions";

export const MAX_QUANTITY = 10;

/** One row per (item, price) of the open cart; the item's columns are null for an empty cart. */
interface OpenCartRow {
  cartId: string;
  currency: string;
  itemId: string | null;
  quantity: number | bigint | null;
  productId: string | null;
  slug: string | null;
  name: string | null;
  description: string | null;
  image: string | null;
  priceCurrency: string | null;
  price: number | bigint | null;
  tax: number | bigint | null;
}

/** The id of a cart or cart line inserted raw, shaped like the schema's @default(cuid()) (25
 *  characters: "c", the time, a counter, random): ids look alike whoever wrote the row (the
 *  service sees cart ids as purchase data's cart_id), and sort by creation within a process. */
let rowCount = 0;
function rowId(): string {
  rowCount = (rowCount + 1) % 36 ** 4;
  const time = Date.now().toString(36).padStart(8, "0").slice(-8);
  return `c${time}${rowCount.toString(36).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

/**
 * The session's open cart (not yet checked out) with its items in the order they were added,
 * each with its product and the product's prices; null when there is none. Every read of a cart
 * goes through here: pages, callbacks, checkout and the webhook. One raw statement, the same
 * text on SQLite and PostgreSQL: the model query with these includes cost four statements and
 * about 3 ms of CPU per page here, most of it Prisma compiling it (docs/decisions/catalog-rendering.md).
 */
async function findActiveCart(
  db: Tx,
  sessionId: string,
): Promise<(CartRow & { currency: string }) | null> {
  const rows = await db.$queryRaw<OpenCartRow[]>`
    SELECT c."id" AS "cartId", c."currency" AS "currency",
      i."id" AS "itemId", i."quantity" AS "quantity",
      p."id" AS "productId", p."slug" AS "slug", p."name" AS "name",
      p."description" AS "description", p."image" AS "image",
      pp."currency" AS "priceCurrency", pp."price" AS "price", pp."tax" AS "tax"
    FROM (
      SELECT "id", "currency" FROM "Cart"
      WHERE "sessionId" = ${sessionId} AND "checkedOutAt" IS NULL
      ORDER BY "createdAt" DESC
      LIMIT 1
    ) c
    LEFT JOIN "CartItem" i ON i."cartId" = c."id"
    LEFT JOIN "Product" p ON p."id" = i."productId"
    LEFT JOIN "ProductPrice" pp ON pp."productId" = p."id"
    ORDER BY i."createdAt" ASC, i."id" ASC, pp."currency" ASC`;
  const first = rows[0];
  if (!first) return null;
  const cart: CartRow & { currency: string } = {
    id: first.cartId,
    currency: first.currency,
    items: [],
  };
  let item: CartRow["items"][number] | undefined;
  for (const row of rows) {
    if (row.itemId === null || row.productId === null) continue;
    if (item?.id !== row.itemId) {
      item = {
        id: row.itemId,
        quantity: Number(row.quantity),
        product: {
          id: row.productId,
          slug: row.slug ?? "",
          name: row.name ?? "",
          description: row.description ?? "",
          image: row.image ?? "",
          prices: [],
        },
      };
      cart.items.push(item);
    }
    if (row.priceCurrency !== null) {
      item.product.prices.push({
        currency: row.priceCurrency,
        price: Number(row.price),
        tax: Number(row.tax),
      });
    }
  }
  return cart;
}

/** The priced cart of a session, in the cart's own currency; null when there is none. */
export async function loadCart(sessionId: string): Promise<CartView | null> {
  return loadCartWith(getDb(), sessionId);
}

/**
 * loadCart for one page render: the header's count and the page's own lines read the cart once
 * (React's `cache` lives for one request's render). Pages and layouts only: an action that
 * changes the cart reads it with loadCart or loadCartWith.
 */
export const loadPageCart = cache(loadCart);

/**
 * How many items the session's open cart holds (CartView.count: the sum of its quantities), for
 * the header every shop page renders. One raw statement, the same text on SQLite and
 * PostgreSQL: a model query with the cart's includes is compiled on every call by Prisma's
 * WebAssembly query compiler (about a millisecond of CPU per page here), and the header needs
 * only the sum.
 */
export const pageCartCount = cache(async (sessionId: string): Promise<number> => {
  const [row] = await getDb().$queryRaw<{ count: number | bigint | null }[]>`
    SELECT CAST(COALESCE(SUM(i."quantity"), 0) AS INTEGER) AS "count"
    FROM "CartItem" i
    WHERE i."cartId" = (
      SELECT c."id" FROM "Cart" c
      WHERE c."sessionId" = ${sessionId} AND c."checkedOutAt" IS NULL
      ORDER BY c."createdAt" DESC
      LIMIT 1
    )`;
  return Number(row?.count ?? 0);
});

export async function loadCartWith(db: Tx, sessionId: string): Promise<CartView | null> {
  const cart = await findActiveCart(db, sessionId);
  if (!cart) return null;
  const promotions = await appliedPromotions(db, cart.id);
  return buildCartView({ ...cart, promotions }, cart.currency === "GBP" ? "GBP" : "EUR", shopNow());
}

/** The codes applied to a cart, oldest first, with their rules. */
async function appliedPromotions(db: Tx, cartId: string) {
  const rows = await db.cartPromotion.findMany({
    where: { cartId },
    orderBy: [{ createdAt: "asc" }, { code: "asc" }],
    include: { promotion: true },
    take: MAX_PROMOTION_CODES,
  });
  return rows.map((row) => ({ code: row.code, rule: row.promotion as PromotionRule }));
}

/**
 * Applies a promotion code to the session's open cart (`code`: already checked by
 * promotionCodeSchema): refused with the shopper's message when the shop has no such code, it
 * has expired, is for another currency, the items are below its minimum, it would take off more
 * than the items cost, it is already applied, or the cart holds MAX_PROMOTION_CODES codes.
 */
export async function applyPromotionCode(sessionId: string, code: string): Promise<CartChange> {
  return getDb().$transaction(async (tx) => {
    const cart = await loadCartWith(tx, sessionId);
    if (!cart || cart.lines.length === 0) {
      return { ok: false, error: "Add something to your cart before a promotion code." };
    }
    const applied = await tx.cartPromotion.findMany({ where: { cartId: cart.id } });
    if (applied.some((row) => row.code === code)) {
      return { ok: false, error: `${code} is already applied to your cart.` };
    }
    if (applied.length >= MAX_PROMOTION_CODES) {
      return { ok: false, error: `A cart takes at most ${MAX_PROMOTION_CODES} promotion codes.` };
    }
    const rule = await tx.promotionCode.findUnique({ where: { code } });
    const judged = judgePromotion(
      code,
      rule,
      { currency: cart.currency, itemsTotal: cart.amounts.price + cart.amounts.tax },
      shopNow(),
      cart.amounts.discountTotal,
    );
    if (!judged.ok) return { ok: false, error: judged.message };
    await tx.cartPromotion.create({ data: { cartId: cart.id, code } });
    await tx.cart.update({ where: { id: cart.id }, data: { updatedAt: new Date() } });
    return { ok: true };
  });
}

/** Takes a promotion code off the session's open cart (nothing when it is not there). */
export async function removePromotionCode(sessionId: string, code: string): Promise<void> {
  const cart = await findActiveCart(getDb(), sessionId);
  if (!cart) return;
  await getDb().cartPromotion.deleteMany({ where: { cartId: cart.id, code } });
}

async function getOrCreateCart(
  db: Tx,
  sessionId: string,
  currency: Currency,
  now: Date,
  customerId?: string,
) {
  const cart = await findActiveCart(db, sessionId);
  if (cart) return { ...cart, created: false };
  // Raw, as every statement of a cookieless add (docs/security.md, Bounded storage): Prisma
  // compiles a model query on every call, and a flood pays that per request.
  const created = { id: rowId(), currency, items: [] as CartRow["items"], created: true };
  await db.$executeRaw`INSERT INTO "Cart"
    ("id", "sessionId", "customerId", "currency", "createdAt", "updatedAt")
    VALUES (${created.id}, ${sessionId}, ${customerId ?? null}, ${currency}, ${now}, ${now})`;
  if (!customerId) await dropAnonymousCartsPastCap(db, created.id);
  return created;
}

/** How long after its details were kept a Service Pay payment counts as open: the kit's modal
 *  lifetime (servicePaymentOpen). lib/shop does not import the integration, so it is named here. */
const PAYMENT_OPEN_MS = 30 * 60 * 1000;

/**
 * Anonymous requests make carts (every cookieless request is a new session, proxy.ts): the open
 * carts nobody signed in to are kept to ANONYMOUS_CARTS_MAX, in the transaction that adds one.
 * Past it the least recently changed go (down to nine tenths of it), with their lines, codes,
 * kept checkout details and the trade-in their session saw, except a cart whose Service Pay
 * payment is open (details kept within the modal's lifetime: the service may be collecting for
 * it). A payment started long ago and never finished protects nothing, or add-to-cart and
 * checkout, repeated, would grow the carts without end. A signed-in shopper's cart is never
 * dropped.
 */
async function dropAnonymousCartsPastCap(db: Tx, keep: string): Promise<void> {
  const cap = getConfig().ANONYMOUS_CARTS_MAX;
  // Only past the cap is the whole count read (on PostgreSQL adds in flight may overshoot).
  if ((await anonymousCartsUpTo(db, cap + 1)) <= cap) return;
  const [all] = await db.$queryRaw<{ n: number | bigint }[]>`
    SELECT CAST(COUNT(*) AS INTEGER) AS "n" FROM "Cart"
    WHERE "customerId" IS NULL AND "checkedOutAt" IS NULL`;
  const count = Number(all?.n ?? 0);
  const openSince = new Date(shopNow().getTime() - PAYMENT_OPEN_MS);
  const paying = await db.serviceCheckout.count({ where: { updatedAt: { gt: openSince } } });
  // Down to nine tenths of the cap at once: a flood pays for a drop once per cap/10 new carts.
  // The oldest carts, as many more as payments are open (those are skipped).
  const drop = count - Math.floor(cap * 0.9);
  // On PostgreSQL (read committed) another add's trim may have committed between the two counts.
  if (drop <= 0) return;
  const candidates = await db.$queryRaw<{ id: string; sessionId: string; keptAt: Date | null }[]>`
    SELECT c."id", c."sessionId", s."updatedAt" AS "keptAt" FROM "Cart" c
    LEFT JOIN "ServiceCheckout" s ON s."cartId" = c."id"
    WHERE c."customerId" IS NULL AND c."checkedOutAt" IS NULL AND c."id" <> ${keep}
    ORDER BY c."updatedAt" ASC LIMIT ${drop + paying}`;
  const oldest = candidates
    .filter((c) => c.keptAt === null || new Date(c.keptAt).getTime() <= openSince.getTime())
    .slice(0, drop);
  // In slices: past a cap of 10,000 a trim drops over a thousand carts at once, more ids than one
  // statement may bind on SQLite (Prisma refuses it, P2029, and the add would fail with it).
  for (let at = 0; at < oldest.length; at += TRIM_SLICE) {
    const slice = oldest.slice(at, at + TRIM_SLICE);
    const ids = slice.map((cart) => cart.id);
    await db.sessionTradeIn.deleteMany({
      where: { sessionId: { in: slice.map((cart) => cart.sessionId) } },
    });
    await db.serviceCheckout.deleteMany({ where: { cartId: { in: ids } } });
    await db.cart.deleteMany({ where: { id: { in: ids } } });
  }
}

/** Rows a trim names in one statement: well under the bound values SQLite takes in one. */
const TRIM_SLICE = 500;

/**
 * How many open carts nobody signed in to there are, counted no further than `limit` (one past
 * the cap: the question asked on every new anonymous cart) over the (customerId, checkedOutAt,
 * updatedAt) index, so the count walks at most that many index entries.
 */
async function anonymousCartsUpTo(db: Tx, limit: number): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>`
    SELECT CAST(COUNT(*) AS INTEGER) AS "n" FROM (
      SELECT 1 FROM "Cart" WHERE "customerId" IS NULL AND "checkedOutAt" IS NULL LIMIT ${limit}
    ) AS "counted"`;
  return Number(row?.n ?? 0);
}

/**
 * The trade-ins sessions saw (`SessionTradeIn`, one row per session, written by
 * /api/service/trade-in-seen) kept to ANONYMOUS_CARTS_MAX: past it the oldest seen go, down to
 * nine tenths of it, so a flood of cookieless requests (each a new session) cannot grow the table.
 */
export async function dropSeenTradeInsPastCap(): Promise<void> {
  const cap = getConfig().ANONYMOUS_CARTS_MAX;
  const db = getDb();
  // Asked on every seen trade-in: one raw statement (a model count is compiled on every call),
  // over a table the cap itself keeps small. A bare COUNT(*), which SQLite answers from the
  // table's b-tree pages without reading the rows.
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>`
    SELECT COUNT(*) AS "n" FROM "SessionTradeIn"`;
  const count = Number(row?.n ?? 0);
  if (count <= cap) return;
  // One statement naming no ids: past a cap of 10,000 the oldest tenth is over a thousand rows,
  // more ids than one statement may bind on SQLite (Prisma refuses it, P2029).
  await db.$executeRaw`DELETE FROM "SessionTradeIn" WHERE "sessionId" IN (
    SELECT "sessionId" FROM "SessionTradeIn" ORDER BY "seenAt" ASC
    LIMIT ${count - Math.floor(cap * 0.9)})`;
}

export type CartChange = { ok: true } | { ok: false; error: string };

export async function addToCart(params: {
  sessionId: string;
  currency: Currency;
  customerId?: string;
  productId: string;
  quantity: number;
}): Promise<CartChange> {
  // Raw statements, the same text on SQLite and PostgreSQL: a cookieless add-to-cart is a new
  // session's first click, and each model query costs Prisma's query compiler 0.3 to 1 ms of CPU
  // (docs/security.md, Bounded storage).
  return getDb().$transaction(async (tx) => {
    const product = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Product" WHERE "id" = ${params.productId}`;
    if (product.length === 0) return { ok: false, error: "This product no longer exists." };
    const now = new Date();
    const cart = await getOrCreateCart(
      tx,
      params.sessionId,
      params.currency,
      now,
      params.customerId,
    );
    const existing = cart.items.find((item) => item.product.id === params.productId);
    const quantity = (existing?.quantity ?? 0) + params.quantity;
    if (quantity > MAX_QUANTITY) {
      return { ok: false, error: `You can buy at most ${MAX_QUANTITY} of one product.` };
    }
    await tx.$executeRaw`INSERT INTO "CartItem" ("id", "cartId", "productId", "quantity", "createdAt")
      VALUES (${rowId()}, ${cart.id}, ${params.productId}, ${quantity}, ${now})
      ON CONFLICT ("cartId", "productId") DO UPDATE SET "quantity" = ${quantity}`;
    // A cart made just now already carries the time.
    if (!cart.created) {
      await tx.$executeRaw`UPDATE "Cart" SET "updatedAt" = ${now} WHERE "id" = ${cart.id}`;
    }
    return { ok: true };
  });
}

/** Sets a line's quantity; 0 removes it. Only lines of the session's own open cart. */
export async function setItemQuantity(
  sessionId: string,
  itemId: string,
  quantity: number,
): Promise<CartChange> {
  return getDb().$transaction(async (tx) => {
    const cart = await findActiveCart(tx, sessionId);
    const item = cart?.items.find((i) => i.id === itemId);
    if (!cart || !item) return { ok: false, error: "That item is no longer in your cart." };
    if (quantity === 0) await tx.cartItem.delete({ where: { id: item.id } });
    else await tx.cartItem.update({ where: { id: item.id }, data: { quantity } });
    await tx.cart.update({ where: { id: cart.id }, data: { updatedAt: new Date() } });
    return { ok: true };
  });
}

export async function setCartCurrency(sessionId: string, currency: Currency): Promise<void> {
  await getDb().cart.updateMany({
    where: { sessionId, checkedOutAt: null },
    data: { currency },
  });
}

/** Logging in keeps the cart: the cart stays on the session and now names the customer. */
export async function attachCustomer(sessionId: string, customerId: string | null): Promise<void> {
  await getDb().cart.updateMany({
    where: { sessionId, checkedOutAt: null },
    data: { customerId },
  });
}

/** 1..MAX_QUANTITY, for quantity pickers. */
export const QUANTITY_CHOICES = Array.from({ length: MAX_QUANTITY }, (_, i) => i + 1);
