// The order webhook under the deliveries the service really makes (contract, Events › Webhook:
// retried on failure, duplicates possible, order not guaranteed), over HTTP: the purchases are
// made through the shop's forms and the SDK's calls (./support/http-purchase.ts), the emulator
// sends its real, signed notifications at once or out of order, and the shop's database is read
// afterwards. What a shopper sees of a late or retried webhook stays in the browser
// (service-webhooks.e2e.ts); here nothing a page shows would add to the check.
import { expect, test } from "./support/fixtures";
import { type HttpCart, payWithServicePayOverHttp, signedInShopper } from "./support/http-purchase";
import { HOLD_SECONDS } from "./support/journeys";
import { notificationsOfCart, statusChangesOfCart, storedOrderOfCart } from "./support/shop-db";

const CART: HttpCart = {
  currency: "EUR",
  delivery: "standard",
  lines: [{ slug: "aurora-x1", quantity: 1 }],
  tradeIn: { value: 15_000, currency: "EUR" },
};

/** The order moved from pending to paid exactly once, by the service. */
function expectPaidOnce(cartId: string) {
  const toPaid = statusChangesOfCart(cartId).filter((c) => c.to === "payment_completed");
  expect(toPaid).toEqual([{ from: "pending", to: "payment_completed", source: "service" }]);
}

test("the same notification delivered ten times at once is stored once and changes the order once @emulator", async ({
  emulator,
}) => {
  await emulator.holdWebhooks(HOLD_SECONDS);
  const shopper = await signedInShopper("shopper@example.com");
  try {
    const paid = await payWithServicePayOverHttp(shopper, "shopper@example.com", CART);
    const notification = await emulator.webhookFor(paid.cartId);
    // Held: the shop has its pending order and no notification yet.
    expect(storedOrderOfCart(paid.cartId)?.status).toBe("pending");
    expect(notificationsOfCart(paid.cartId)).toEqual([]);

    const [twice, ...single] = await Promise.all([
      emulator.sendTwice(notification.id),
      ...Array.from({ length: 8 }, () => emulator.redeliver(notification.id)),
    ]);
    const statuses = [...(twice?.attempts ?? []), ...single.map((s) => s.attempt)].map(
      (a) => a.status,
    );
    expect(statuses).toEqual(Array(10).fill(200));

    // A 200 means stored; the apply follows it and writes its outcome on the stored row.
    await expect
      .poll(() => notificationsOfCart(paid.cartId))
      .toEqual([
        {
          notificationId: JSON.parse(notification.body).id ?? null,
          status: "payment_completed",
          outcome: "applied",
        },
      ]);
    expectPaidOnce(paid.cartId);
    expect(storedOrderOfCart(paid.cartId)).toMatchObject({
      status: "payment_completed",
      tradeInDiscount: 15_000,
      serviceOrderId: paid.orderId,
    });
  } finally {
    await shopper.dispose();
  }
});

test("notifications delivered out of order: each order moves on exactly once @emulator", async ({
  emulator,
}) => {
  await emulator.holdWebhooks(HOLD_SECONDS);
  const shoppers = [
    { email: "shopper@example.com", client: await signedInShopper("shopper@example.com") },
    { email: "alex@example.com", client: await signedInShopper("alex@example.com") },
  ];
  try {
    const paid = [];
    for (const shopper of shoppers) {
      paid.push(await payWithServicePayOverHttp(shopper.client, shopper.email, CART));
    }
    const [earlier, later] = await Promise.all(paid.map((p) => emulator.webhookFor(p.cartId)));
    if (!earlier || !later) throw new Error("both payments have a notification");

    // The later payment's notification reaches the shop first.
    const { attempts } = await emulator.reorder(earlier.id, later.id);
    expect(attempts.map((a) => a.status)).toEqual([200, 200]);
    for (const p of paid) {
      // A 200 means stored; wait for the apply that follows it.
      await expect
        .poll(() => notificationsOfCart(p.cartId).map((n) => n.outcome))
        .toEqual(["applied"]);
      expectPaidOnce(p.cartId);
      expect(storedOrderOfCart(p.cartId)).toMatchObject({
        status: "payment_completed",
        tradeInDiscount: 15_000,
        serviceOrderId: p.orderId,
      });
    }
  } finally {
    await Promise.all(shoppers.map((s) => s.client.dispose()));
  }
});
