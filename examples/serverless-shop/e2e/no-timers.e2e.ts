// The serverless profile: this shop runs no timer at all (instrumentation.ts starts none, the
// kit's startJobTimer is never called), so whatever a resident process would do in the
// background happens only when a scheduler calls the job routes (app/api/service/jobs/*, with
// the JOBS_SECRET bearer) — here the journey is the scheduler. Through a webhook outage, its
// recovery and a burst of repeated deliveries, and an outage of register-purchase and its
// recovery, nothing is lost and nothing is applied twice: every order's status in the shop's
// database equals the service's.
import { expect, test } from "@playwright/test";
import {
  emulator,
  query,
  runJob,
  SERVERLESS_SHOP as SHOP,
  signInCartAndTradeIn,
  storedOrder,
  toFilledCheckout,
} from "./shop-steps";

const isConfirmation = (url: URL) => url.pathname === "/kasse/bestaetigung";

interface Notification {
  id: string;
  order_id: string;
  status: string;
}
const notifications = async () =>
  ((await emulator.call("GET", "/webhooks")) as { notifications: Notification[] }).notifications;

test("no timers: webhooks lost, then a burst of them, and a service outage; the scheduler's calls leave every order as the service has it, once", async ({
  page,
}) => {
  // The job routes refuse a caller without the bearer (and run nothing).
  expect((await page.request.post("/api/service/jobs/trade-in-retry")).status()).toBe(401);

  // 1. Service Pay while the shop is unreachable for the service's webhook: the order waits.
  let context = await signInCartAndTradeIn(page);
  await toFilledCheckout(page, context);
  await SHOP.chooseServicePay(page, context);
  await emulator.call("POST", "/webhooks/delivery-faults", { faults: ["unreachable"] });
  await SHOP.placeOrder(page, context);
  const paid = await context.sdk.pay("Card", isConfirmation);
  await expect(page.getByTestId("order-status")).toHaveText("Zahlung ausstehend");
  // The pending order the shop made at ready-to-place-order, of the cart the service names.
  const [pending] = await query<{ number: string; status: string }>(
    "SELECT number, status FROM orders WHERE cart_id = $1",
    [paid.cart_id],
  );
  expect(pending?.status).toBe("awaiting_payment");

  // 2. The service delivers it again, then a burst: the same notification five times at once,
  //    twice over, and redelivered five times more, all at the same moment.
  const [sent] = (await notifications()).filter((n) => n.order_id === paid.order_id);
  if (!sent) throw new Error(`no webhook for ${paid.order_id}`);
  const burst = [
    ...Array.from({ length: 5 }, () => emulator.call("POST", `/webhooks/${sent.id}/twice`)),
    ...Array.from({ length: 5 }, () => emulator.call("POST", `/webhooks/${sent.id}/redeliver`)),
  ];
  await Promise.all(burst);
  // What the webhook stored and nobody applied yet (none here: it stores and applies at once),
  // applied by the scheduler's sweep.
  await runJob(page, "notification-sweep");
  await expect(page.getByTestId("order-status")).toHaveText("Bezahlt");

  // 3. A card order while register-purchase is down (503 on every call): the order stands, the
  //    trade-in waits for the retry job, which only the scheduler runs.
  await page.getByRole("button", { name: "Abmelden" }).click();
  context = await signInCartAndTradeIn(page);
  const total = await toFilledCheckout(page, context);
  await SHOP.chooseCard(page, context);
  await emulator.call("POST", "/faults", {
    endpoint: "register_purchase",
    status: 503,
    retry_after_seconds: 1,
  });
  await SHOP.placeOrder(page, context);
  const card = await SHOP.readConfirmation(page, context);
  await expect(page.getByTestId("trade-in-status")).toHaveAttribute("data-outcome", "queued");
  expect((await runJob(page, "trade-in-retry")).registered).toBe(0);
  // The service recovers; the scheduler calls the retry job until the registration is due and
  // sent (each call one run; a real scheduler calls every minute).
  await emulator.call("DELETE", "/faults");
  await expect
    .poll(async () => (await runJob(page, "trade-in-retry")).registered, { timeout: 20_000 })
    .toBe(1);
  expect((await runJob(page, "trade-in-retry")).due).toBe(0);
  const receipts = await emulator.receipts(card.orderNumber);
  expect(receipts.filter((r) => r.status === 200)).toEqual([
    expect.objectContaining({ order_amount: total }),
  ]);
  expect(await storedOrder(card.orderNumber)).toEqual({ paid: true, total, tradeInDiscount: 0 });

  // 4. Every Service Pay order of the shop as the service has it, each status move made once.
  const forService: Record<string, string> = {
    pending: "awaiting_payment",
    payment_completed: "paid",
    completed: "complete",
  };
  const shopOrders = await query<{ id: string; service_order_id: string; status: string }>(
    "SELECT id, service_order_id, status FROM orders WHERE service_order_id IS NOT NULL",
  );
  const serviceOrders = (
    (await emulator.call("GET", "/orders")) as { orders: { order_id: string; status: string }[] }
  ).orders;
  expect(shopOrders.length).toBeGreaterThan(0);
  for (const order of shopOrders) {
    const service = serviceOrders.find((o) => o.order_id === order.service_order_id);
    expect(order.status, `${order.service_order_id}`).toBe(forService[service?.status ?? ""]);
  }
  const moves = await query<{ to_status: string }>(
    "SELECT to_status FROM service_order_history WHERE order_id = (SELECT id FROM orders WHERE cart_id = $1)",
    [paid.cart_id],
  );
  expect(moves.filter((m) => m.to_status === "paid")).toHaveLength(1);
});
