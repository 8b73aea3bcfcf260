// The shop at scale (docs/decisions/scaling.md): two instances on PostgreSQL behind nginx's
// round robin, nothing sticky. Each journey is the single-instance suite's, through the
// balancer, plus what only several instances can get wrong: a webhook storm spread over both, a
// token expiry both notice at once, and an instance that dies mid-payment.
import type { Page } from "@playwright/test";
import { adminLogin } from "../fixtures";
import { emulator as emulatorClient, type JournalEntry } from "../support/emulator";
import { expect, test } from "../support/fixtures";
import {
  payByCard,
  payWithServicePay,
  payWithWebhooksHeld,
  releaseHeldWebhook,
  signWebhook,
  valueDevice,
} from "../support/journeys";
import { cluster, instanceOf, instancesServing, orderHistory, PAID_ONCE } from "./support";

const grantsAfter = (journal: JournalEntry[], seq: number) =>
  journal
    .filter((e) => e.kind === "request" && e.path === "/oauth2/token/" && e.seq > seq)
    .map((e) => (e.request_body as { grant_type?: string } | undefined)?.grant_type);
const lastSeq = (journal: JournalEntry[]) => journal.at(-1)?.seq ?? 0;

test("Service Pay through the balancer: both instances serve the journey, the order is paid once @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const served = instancesServing(page);
  const paid = await payWithServicePay({ page, sdk, shop, emulator });
  await expect(shop.orderStatus()).toHaveText("Paid");
  await expect(shop.tradeInDiscount()).toHaveText("−€150.00");
  // No stickiness: the session, cart and pending order written by one instance were read by
  // the other.
  expect(served.size).toBe(2);
  expect(await orderHistory(paid.orderNumber)).toEqual(PAID_ONCE);
});

test("card payment with a trade-in through the balancer: registered exactly once @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const served = instancesServing(page);
  await shop.login();
  const offer = await valueDevice(sdk);
  await shop.addToCart("aurora-x1");
  const number = await payByCard(shop);
  await expect(page.getByTestId("trade-in-outcome")).toHaveAttribute("data-outcome", "registered");

  const registered = (await emulator.journal()).filter(
    (e) => e.kind === "request" && e.method === "POST" && e.path === "/register-purchase",
  );
  expect(registered.map((e) => e.status)).toEqual([200]);
  const orders = (await emulator.orders()).filter((o) => o.order_id === number);
  expect(orders.map((o) => o.trade_in_discount)).toEqual([offer]);
  expect(served.size).toBe(2);

  // The inspector's feed, polled through the balancer, shows the registration to the shopper
  // whichever instance made it and whichever answers the poll.
  const feeds = await page.evaluate(() =>
    Promise.all(
      Array.from({ length: 4 }, async () => {
        const response = await fetch("/api/service/inspector");
        const body = (await response.json()) as { entries: { label: string }[] };
        return {
          instance: response.headers.get("x-shop-instance"),
          labels: body.entries.map((e) => e.label),
        };
      }),
    ),
  );
  expect(new Set(feeds.map((f) => f.instance)).size).toBe(2);
  for (const feed of feeds) expect(feed.labels).toContain("POST /register-purchase");
});

test("50 copies of one notification at once, spread over both instances: exactly one transition @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const paid = await payWithWebhooksHeld({ page, sdk, shop, emulator });
  const notification = await emulator.webhookFor(paid.cart_id);

  // The service's exact bytes and signature, 50 times at once through the balancer.
  const signature = signWebhook(notification.body);
  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      fetch(new URL("/api/service/webhooks/order", page.url()), {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-signature": signature },
        body: notification.body,
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
  const byInstance = new Map<string, number>();
  for (const answer of answers) {
    byInstance.set(instanceOf(answer), (byInstance.get(instanceOf(answer)) ?? 0) + 1);
  }
  expect(byInstance.size).toBe(2);

  await page.reload();
  await expect(shop.orderStatus()).toHaveText("Paid");
  expect(await orderHistory(paid.orderNumber)).toEqual(PAID_ONCE);
  // The service's own delivery, when it comes, is one more duplicate.
  await releaseHeldWebhook(emulator, paid.cart_id);
  expect(await orderHistory(paid.orderNumber)).toEqual(PAID_ONCE);
});

test("a token expiry both instances notice at once costs exactly one grant @emulator", async ({
  page,
  emulator,
  browser,
}) => {
  /** An admin on the orders page reconciles (GET /payments/orders/ with the service token). */
  const reconcileFrom = async (admin: Page) => {
    const form = admin.getByRole("form", { name: "Reconcile with the service" });
    const button = form.getByRole("button", { name: "Reconcile with the service" });
    const answer = admin.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/admin",
    );
    await button.click();
    const response = await answer;
    await expect(button).toBeEnabled();
    await expect(form.getByRole("alert")).toHaveCount(0);
    return instanceOf(response);
  };
  await adminLogin(page);
  // The first reconcile logs in: one token pair, in the database for both instances.
  await reconcileFrom(page);
  const other = await browser.newContext();
  try {
    const otherAdmin = await other.newPage();
    await adminLogin(otherAdmin);

    // An hour later on the service's clock the access token is refused (401); the shop's own
    // clock still thinks it good, so each instance learns it from its own 401.
    await emulator.advanceClock({ minutes: 61 });
    // The list answers slowly, so the second instance sends with the old token before the first
    // has renewed it: both learn of the expiry from their own 401.
    await emulator.addFault({ endpoint: "orders_list", latency_ms: 500 });
    const before = lastSeq(await emulator.journal());
    const served = await Promise.all([reconcileFrom(page), reconcileFrom(otherAdmin)]);
    expect(new Set(served).size).toBe(2);

    const journal = await emulator.journal();
    expect(grantsAfter(journal, before)).toEqual(["refresh_token"]);
    const refused = journal.filter(
      (e) =>
        e.kind === "request" && String(e.path).startsWith("/payments/orders/") && e.seq > before,
    );
    expect(refused.map((e) => e.status).sort()).toEqual([200, 200, 401, 401]);
  } finally {
    await other.close();
  }
});

test("an instance killed between the pending order and the webhook loses nothing @emulator", async ({
  page,
  sdk,
  shop,
  emulator,
}) => {
  const paid = await payWithWebhooksHeld({ page, sdk, shop, emulator });
  try {
    await cluster.kill(1);
    expect((await cluster.instances()).map((i) => i.running)).toEqual([false, true]);
    // The service delivers now: the balancer passes it to the instance still running.
    await releaseHeldWebhook(emulator, paid.cart_id);
    const delivered = await emulator.deliveredWebhookFor(paid.cart_id);
    expect(delivered.attempts.map((a) => a.status)).toEqual([200]);
    // The shopper's page, still open, learns it through the balancer.
    await expect(shop.orderStatus()).toHaveText("Paid");
    expect(await orderHistory(paid.orderNumber)).toEqual(PAID_ONCE);
  } finally {
    await cluster.start(1);
  }
  // Back in the rotation, the restarted instance serves the same order from the database.
  // (nginx sends it requests again once its fail_timeout, 2 s, has passed.)
  const served = instancesServing(page);
  await expect
    .poll(async () => {
      await page.reload();
      await expect(shop.orderStatus()).toHaveText("Paid");
      return served.size;
    })
    .toBe(2);
});

test.afterAll(async () => {
  await emulatorClient.reset();
});
