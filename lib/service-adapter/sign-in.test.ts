import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as purchaseData } from "@/app/api/service/purchase_data/route";
import { GET as shopperData } from "@/app/api/service/shopper_data/route";
import { serviceAdapter } from "@/lib/service-adapter/service";
import { isRevoked, signInSession } from "@/lib/session/revocation";
import { ensureIdentity, type ShopSessionData } from "@/lib/session/session-data";
import { attachCustomer } from "@/lib/shop/cart";
import { seedCart, seedCustomer, sessionCookie, setUpTestShop } from "@/test-support/test-shop";

// A sign-in at a browser whose session is signed in as someone else starts a new session: the
// next shopper gets nothing of the previous one's (cart, kept checkout, trade-in: all keyed by the
// session id, and the session hash the service keys the trade-in by is made of it; contract,
// Session hash, Merchant endpoints). A guest signing in keeps their cart and trade-in.

const shop = setUpTestShop();

const cookieOf = (data: ShopSessionData) =>
  sessionCookie(data as ShopSessionData & { sessionId: string; salt: string });
const get = async (route: typeof purchaseData, path: string, data: ShopSessionData) =>
  route(
    new Request(`http://shop.test/api/service/${path}`, {
      headers: { cookie: await cookieOf(data) },
    }),
  );
const hashOf = (data: ShopSessionData) =>
  createHmac("sha256", data.salt as string)
    .update(data.sessionId as string)
    .digest("hex");

describe("signInSession", () => {
  it("B signing in over A's signed-in session gets a new session: no cart, checkout, trade-in or session hash of A's", async () => {
    const [a, b] = [await seedCustomer(shop.db), await seedCustomer(shop.db)];
    const data: ShopSessionData = {};
    ensureIdentity(data);
    await signInSession(data, { customerId: a.id }, "login");
    const aSession = { ...data };
    // A's cart, kept checkout details and a trade-in the SDK showed, all under A's session id.
    await seedCart(shop.db, data.sessionId as string, [
      { productId: shop.products.phone.id, quantity: 1 },
    ]);
    await attachCustomer(data.sessionId as string, a.id);
    await serviceAdapter().noteTradeInSeen(data.sessionId as string, "tradein-of-a");
    expect((await (await get(purchaseData, "purchase_data", data)).json()).purchase).not.toBeNull();

    // B at the same browser, without signing A out.
    expect(await signInSession(data, { customerId: b.id }, "login")).toBe(true);
    expect(data.customerId).toBe(b.id);
    expect(data.sessionId).not.toBe(aSession.sessionId);
    expect(data.salt).not.toBe(aSession.salt);
    expect(await isRevoked(aSession.token as string)).toBe(true);
    expect(await (await get(purchaseData, "purchase_data", data)).json()).toEqual({
      purchase: null,
    });
    const shopper = await (await get(shopperData, "shopper_data", data)).json();
    expect(shopper.customer.id).toBe(b.id);
    expect(shopper.session_hash_token).toBe(hashOf(data));
    expect(shopper.session_hash_token).not.toBe(hashOf(aSession));
    expect(await shop.db.sessionTradeIn.count({ where: { sessionId: data.sessionId } })).toBe(0);
    expect(await shop.db.serviceCheckout.count({ where: { sessionId: data.sessionId } })).toBe(0);
  });

  it("a guest signing in keeps their session: the same id and salt, the cart, a new token", async () => {
    const customer = await seedCustomer(shop.db);
    const data: ShopSessionData = {};
    ensureIdentity(data);
    const guest = { ...data };
    const cart = await seedCart(shop.db, data.sessionId as string, [
      { productId: shop.products.cable.id, quantity: 2 },
    ]);
    expect(await signInSession(data, { customerId: customer.id }, "login")).toBe(false);
    expect(data).toMatchObject({ sessionId: guest.sessionId, salt: guest.salt });
    expect(data.token).not.toBe(guest.token);
    const body = await (await get(purchaseData, "purchase_data", data)).json();
    expect(body.purchase.cart.id).toBe(cart.id);
    // The same customer signing in again keeps it too.
    expect(await signInSession(data, { customerId: customer.id }, "login")).toBe(false);
    expect(data.sessionId).toBe(guest.sessionId);
  });

  it("a shopper signing in over the back office's session, and the back office over a shopper's, start anew", async () => {
    const customer = await seedCustomer(shop.db);
    const data: ShopSessionData = {};
    ensureIdentity(data);
    await signInSession(data, { admin: true }, "admin_login");
    const admin = { ...data };
    expect(await signInSession(data, { customerId: customer.id }, "login")).toBe(true);
    expect(data.admin).toBeUndefined();
    expect(data.sessionId).not.toBe(admin.sessionId);
    const shopper = { ...data };
    expect(await signInSession(data, { admin: true }, "admin_login")).toBe(true);
    expect(data.customerId).toBeUndefined();
    expect(data.sessionId).not.toBe(shopper.sessionId);
  });
});
