// Signed order notifications for the webhook benchmarks (bench:webhook, bench:cluster), made in
// advance so signing costs nothing during the measurement.
import { createHmac } from "node:crypto";
import { createTokenSealer } from "@service-integration/kit/server";
// The token store's own sealing (the Prisma adapter's), not a copy of it.
import { sealedTokenRow } from "@service-integration/prisma-adapter";

const STATUSES = ["payment_completed", "completed"];

export const benchCartId = (order) => `bench-cart-${order}`;

/**
 * `count` deliveries: notification n is for order n mod `orders`, moving it on (payment_completed,
 * then completed, then repeats of completed); a `duplicateShare` of them are exact copies (same
 * bytes, same signature) of an earlier delivery. Both body forms of the contract, alternating.
 */
export function signedDeliveries({ count, orders, duplicateShare, secret }) {
  const list = [];
  let unique = 0;
  for (let i = 0; i < count; i++) {
    if (list.length > 100 && i % Math.round(1 / duplicateShare) === 0) {
      list.push(list[i - 1 - ((i * 7919) % 100)]);
      continue;
    }
    const n = unique++;
    const order = n % orders;
    const status = STATUSES[Math.min(Math.floor(n / orders), STATUSES.length - 1)];
    const fields = {
      id: `wh_${String(n).padStart(8, "0")}`,
      event: "order.payment_completed",
      created_at: new Date(1_790_000_000_000 + n).toISOString(),
      order_id: `svc-${order}`,
    };
    const money = { amount: 12300, currency: "EUR", trade_in_discount: 5000, customer_id: null };
    const body = JSON.stringify(
      n % 2 === 0
        ? { ...fields, cart_id: benchCartId(order), status, ...money }
        : { ...fields, ...money, data: { cart_id: benchCartId(order), status } },
    );
    list.push({
      id: fields.id,
      body,
      signature: createHmac("sha256", secret).update(body).digest("hex"),
    });
  }
  return list;
}

/**
 * An autocannon request that sends the next delivery of `list` (`cursor.i` counts them) and
 * notes the id of every delivery answered 200 in `cursor.answered`: the shop promises those are
 * stored. A request made at the end of a measurement may never be sent, so what was made is not
 * what was answered.
 */
export function nextDeliveryRequest(list, cursor) {
  cursor.answered ??= new Set();
  return {
    method: "POST",
    setupRequest(request, context) {
      const next = list[cursor.i++ % list.length];
      context.delivery = next.id;
      return {
        ...request,
        body: next.body,
        headers: { "content-type": "application/json", "x-service-signature": next.signature },
      };
    },
    onResponse(status, _body, context) {
      if (status === 200 && context.delivery) cursor.answered.add(context.delivery);
    },
  };
}

/** The `ServiceToken` row the benchmarks seed so the server knows the signing secret without
 *  logging in; sealed with `tokenKey`, the SERVICE_TOKEN_KEY the server under test runs with. */
export function seededTokenRow({ tokenKey, userId, merchantId }) {
  return sealedTokenRow(createTokenSealer(tokenKey), "default", {
    accessToken: "bench-access-token",
    refreshToken: "bench-refresh-token",
    userId,
    merchantId,
    scope: "core payments valuations updates",
    accessExpiresAt: new Date(Date.now() + 3_600_000),
  });
}

/**
 * The webhook's promise, checked after a run: every delivery answered 200 is stored (`lost`: 0),
 * once (`rows` = `distinct`), and nothing is stored that was not sent (`unknown`: 0). `made` are
 * the ids of the requests made, `storedIds` the stored rows' notification ids.
 */
export function compareStored({ made, answered, storedIds }) {
  const stored = new Set(storedIds);
  return {
    rows: storedIds.length,
    distinct: stored.size,
    answered: answered.size,
    made: made.size,
    lost: [...answered].filter((id) => !stored.has(id)).length,
    unknown: [...stored].filter((id) => !made.has(id)).length,
  };
}

/** The ids of the first `count` deliveries of `list` (the requests made). */
export function madeIds(list, count) {
  const ids = new Set();
  for (let i = 0; i < count; i++) ids.add(list[i % list.length].id);
  return ids;
}
