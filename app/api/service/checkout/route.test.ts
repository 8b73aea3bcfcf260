import {
  reconcileServiceOrders,
  replaceProcessSingleton,
  sessionHash,
} from "@service-integration/kit/server";
import {
  type FakeValuationClient,
  serviceDown,
  serviceWithoutTradeIn,
  serviceWithValuation,
} from "@service-integration/kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { getServiceClient, serviceOrderDeps } from "@/lib/service-adapter/service";
import {
  CHECKOUT,
  jsonRequest,
  newSession,
  openPayment,
  pendingOrderRequest,
  seedCart,
  sessionCookie,
  setUpTestShop,
  webhookRequest,
  withHistory,
} from "@/test-support/test-shop";
import { POST as pendingOrder } from "../pending-order/route";
import { POST as webhook } from "../webhooks/order/route";
import { POST as checkout } from "./route";

// The Service Pay payment start keeps the accepted valuation the service shows for the shopper's
// session (asked server side, never taken from the browser), and the paid notification's
// trade-in discount must match it (docs/decisions/payment-matching.md). Against a migrated
// database, through the route handlers, with the one service client replaced by a fake.

const shop = setUpTestShop();

const realClient = () => {
  replaceProcessSingleton("service-client", undefined);
  return getServiceClient();
};

/** Installs `client`'s session look-ups as the process's service client's; its tokens (the
 *  webhook secret) stay the real client's (lib/service-adapter/service.ts). */
function useService(client: FakeValuationClient): FakeValuationClient {
  replaceProcessSingleton("service-client", { ...client, tokens: realClient().tokens });
  return client;
}

afterEach(() => {
  realClient();
  delete process.env.SERVICE_ORDER_CREATION;
});

/** The phone's cart with the express delivery CHECKOUT chose: 100.00 + 23.00 tax + 14.99, the
 *  contract Cart's total (delivery is a line of it), so the amount the service charges. */
const CART_TOTAL = 12_300 + 1_499;
let seq = 0;

async function startPayment() {
  const session = newSession();
  const cart = await seedCart(shop.db, session.sessionId, [
    { productId: shop.products.phone.id, quantity: 1 },
  ]);
  const cookie = await sessionCookie(session);
  const response = await checkout(
    jsonRequest("http://shop.test/api/service/checkout", CHECKOUT, cookie),
  );
  return { session, cart, cookie, response };
}

function paid(cartId: string, tradeInDiscount: number) {
  seq += 1;
  return webhookRequest({
    id: `wh_val_${seq}`,
    event: "order.payment_completed",
    order_id: `ord_val_${seq}`,
    cart_id: cartId,
    status: "payment_completed",
    amount: CART_TOTAL,
    currency: "EUR",
    trade_in_discount: tradeInDiscount,
  });
}

/**
 * The webhook answers 200 once the notification is durably stored and applies it right after
 * (docs/decisions/webhook-storage.md); what the apply did lands on the stored row. Waits for
 * that outcome as a reader of the database sees it.
 */
async function settlesAs(notificationId: string, outcome: "applied" | "held") {
  await expect
    .poll(
      async () =>
        (await shop.db.serviceNotification.findFirst({ where: { notificationId } }))?.outcome,
    )
    .toBe(outcome);
}

const history = async (cartId: string) => {
  const order = await withHistory(
    shop.db,
    await shop.db.order.findUniqueOrThrow({ where: { cartId } }),
  );
  return { order, notes: order.history.map((h) => h.note).join("\n") };
};

describe("POST /api/service/checkout: the accepted valuation", () => {
  it("keeps what the service says for the session's hash, and the order carries it", async () => {
    const service = useService(serviceWithValuation(5_000, "EUR"));
    const { session, cart, cookie, response } = await startPayment();
    expect(response.status).toBe(200);
    expect(service.asked).toEqual([sessionHash(session.sessionId, session.salt)]);
    expect(
      await shop.db.serviceCheckout.findUniqueOrThrow({ where: { cartId: cart.id } }),
    ).toMatchObject({
      valuationState: "known",
      valuationItemId: "tradein_1",
      valuationValue: 5_000,
      valuationCurrency: "EUR",
    });
    // The ready-to-place-order call sends the details again: the kept valuation stays.
    await openPayment(session);
    expect((await pendingOrder(pendingOrderRequest(cart.id, cookie))).status).toBe(200);
    const { order, notes } = await history(cart.id);
    expect(order).toMatchObject({ valuationState: "known", valuationValue: 5_000 });
    expect(notes).toMatch(/accepted valuation known \(trade-in tradein_1: €50\.00\)/);
    // While it waits for the payment, the order already shows what the service's window does.
    expect(order).toMatchObject({
      status: "pending",
      tradeInDiscount: 5_000,
      total: CART_TOTAL - 5_000,
    });

    const res = await webhook(paid(cart.id, 5_000));
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(`wh_val_${seq}`, "applied");
    expect((await history(cart.id)).order).toMatchObject({
      status: "payment_completed",
      tradeInDiscount: 5_000,
    });
  });

  it("holds an order whose discount is 1 cent off the accepted value, and reconcile says why", async () => {
    useService(serviceWithValuation(5_000, "EUR"));
    const { session, cart, cookie } = await startPayment();
    await openPayment(session);
    await pendingOrder(pendingOrderRequest(cart.id, cookie));
    const res = await webhook(paid(cart.id, 4_999));
    expect(res.status).toBe(200);
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(`wh_val_${seq}`, "held");
    const { order, notes } = await history(cart.id);
    // Held, never paid; the order keeps the discount the accepted valuation allows.
    expect(order).toMatchObject({ status: "payment_mismatch", tradeInDiscount: 5_000 });
    expect(notes).toContain(
      "trade-in discount €49.99, the accepted valuation of trade-in tradein_1 allows €50.00",
    );
    const report = await reconcileServiceOrders({
      ...serviceOrderDeps(),
      client: { listOrders: async () => ({ orders: [] }) },
    });
    const line = report.lines.find((l) => l.includes(order.number));
    expect(line).toContain("is held");
    expect(line).toContain("the accepted valuation of trade-in tradein_1 allows €50.00");
  });

  it("in webhook mode the order created by the webhook carries the valuation and is held", async () => {
    process.env.SERVICE_ORDER_CREATION = "webhook";
    useService(serviceWithoutTradeIn());
    const { cart } = await startPayment();
    const res = await webhook(paid(cart.id, 2_000));
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(`wh_val_${seq}`, "held");
    const { order, notes } = await history(cart.id);
    expect(order).toMatchObject({ status: "payment_mismatch", valuationState: "none" });
    expect(notes).toContain("trade-in discount €20.00, but there was no accepted trade-in");
  });

  it("does not 500 when the service is down: the payment starts, and the history says the value was not confirmed", async () => {
    useService(serviceDown());
    const { session, cart, cookie, response } = await startPayment();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ cart_id: cart.id });
    expect(
      await shop.db.serviceCheckout.findUniqueOrThrow({ where: { cartId: cart.id } }),
    ).toMatchObject({ valuationState: "unknown", valuationValue: null });
    await openPayment(session);
    await pendingOrder(pendingOrderRequest(cart.id, cookie));
    const res = await webhook(paid(cart.id, 3_000));
    expect((await res.json()).outcome).toBe("stored");
    await settlesAs(`wh_val_${seq}`, "applied");
    const { order, notes } = await history(cart.id);
    expect(order).toMatchObject({ status: "payment_completed", tradeInDiscount: 3_000 });
    expect(notes).toMatch(
      /the accepted valuation could not be confirmed \(the service could not be asked at payment start: .*\): the trade-in discount was checked against the order total only/,
    );
  });
});
