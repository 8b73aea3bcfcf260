// Active readiness checks: the emulator sends crafted notifications to a merchant's registered
// webhook URL ({merchant_webhook_base}/order) and judges the answers (contract: Authentication 5,
// Merchant endpoints rule 2, Events › Webhook). Exactly 200 for what is genuine, 403 for what is
// forged, never a 5xx. Every request is a `webhook` journal entry (meta.kind "readiness").
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { EmulatorContext } from "../context";
import type { Merchant, Order, OrderStatus, WebhookForm } from "../domain";
import type { JournalEntry } from "../journal";
import { type NotificationFields, webhookBody } from "../webhooks/body";
import { SIGNATURE_HEADER, sign, signingSecret, wrongSecret } from "../webhooks/signature";
import { evidenceOf, type Finding } from "./findings";
import type { RuleId } from "./rules";

/** The service waits 30 s for an answer (Events › Webhook); a little more for the slow send. */
const ANSWER_TIMEOUT_MS = 35_000;
const DUPLICATES = 10;

type Sent = { status: number; entry: JournalEntry };

export type ActiveTarget = Pick<
  Order,
  "order_id" | "cart_id" | "status" | "amount" | "currency" | "trade_in_discount" | "customer_id"
>;

/** The merchant's latest Service Pay order, else a made-up one it cannot know. */
export function activeTarget(ctx: EmulatorContext, merchant: Merchant, run: number): ActiveTarget {
  const orders = [...ctx.state.orders.values()].filter(
    (o) => o.merchant_id === merchant.id && o.payment === "ep1" && o.status === "payment_completed",
  );
  const latest = orders[orders.length - 1];
  if (latest) return latest;
  return {
    order_id: `ord_readiness_${run}`,
    cart_id: `cart_readiness_${run}`,
    status: "payment_completed",
    amount: 10_000,
    currency: merchant.currency,
    trade_in_discount: 0,
    customer_id: null,
  };
}

function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  /** The gap between the body's four pieces (ms), or null to send it at once. */
  slowGapMs: number | null,
): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, { method: "POST", headers, timeout: ANSWER_TIMEOUT_MS }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (text.length < 4096) text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", (error) => resolve({ status: 0, text, error: error.message }));
    });
    req.on("timeout", () =>
      req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
    );
    req.on("error", (error) => resolve({ status: 0, text: "", error: error.message }));
    if (slowGapMs === null) {
      req.end(body);
      return;
    }
    const bytes = Buffer.from(body, "utf8");
    const size = Math.ceil(bytes.length / 4);
    let offset = 0;
    const next = () => {
      const piece = bytes.subarray(offset, offset + size);
      offset += size;
      if (offset >= bytes.length) req.end(piece);
      else {
        req.write(piece);
        setTimeout(next, slowGapMs);
      }
    };
    next();
  });
}

export async function runActiveChecks(
  ctx: EmulatorContext,
  merchant: Merchant,
  run: number,
  epoch: number,
): Promise<{ target: string; findings: Partial<Record<RuleId, Finding>> }> {
  const url = `${merchant.webhook_base.replace(/\/+$/, "")}/order`;
  const secret = signingSecret(ctx.state, merchant.id);
  const order = activeTarget(ctx, merchant, run);
  let counter = 0;
  const notification = (
    status: OrderStatus | string,
    form: WebhookForm = merchant.webhook_form,
    createdAt = ctx.clock.now(),
  ): string => {
    counter += 1;
    const fields: NotificationFields = {
      id: `wh_readiness_${run}_${counter}`,
      event: "order.payment_completed",
      created_at: ctx.clock.iso(createdAt),
      order: { ...order, status: status as OrderStatus },
    };
    return webhookBody(fields, form);
  };
  const send = async (
    check: RuleId,
    body: string,
    signature: string | undefined,
    slow = false,
  ): Promise<Sent> => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "service-emulator-readiness/1",
      ...(signature !== undefined ? { [SIGNATURE_HEADER.toLowerCase()]: signature } : {}),
    };
    const at = ctx.clock.now();
    const started = performance.now();
    const answer = await post(url, body, headers, slow ? ctx.config.slowSendGapMs : null);
    const entry = ctx.journal.recordWebhook({
      at,
      url,
      status: answer.status,
      duration_ms: Math.round(performance.now() - started),
      attempt: 1,
      request_headers: headers,
      request_body: body,
      ...(answer.text ? { response_body: answer.text } : {}),
      ...(answer.error ? { error: answer.error } : {}),
      meta: { kind: "readiness", check, order_id: order.order_id, ok: answer.status === 200 },
    });
    return { status: answer.status, entry };
  };
  /** Each body correctly signed, one after the other. */
  const signed = async (check: RuleId, ...bodies: string[]): Promise<Sent[]> => {
    const sent: Sent[] = [];
    for (const body of bodies) sent.push(await send(check, body, sign(body, secret)));
    return sent;
  };
  const judge = (sent: Sent[], expected: number, passNote: string, failNote: string): Finding => {
    const wrong = sent.filter((s) => s.status !== expected);
    const statuses = [...new Set(sent.map((s) => s.entry.error ?? String(s.status)))].join(", ");
    return wrong.length === 0
      ? {
          verdict: "pass",
          note: passNote,
          evidence: evidenceOf(
            sent.map((s) => s.entry),
            epoch,
          ),
        }
      : {
          verdict: "fail",
          note: `${failNote} Answered: ${statuses}.`,
          evidence: evidenceOf(
            wrong.map((s) => s.entry),
            epoch,
          ),
        };
  };

  const out: Partial<Record<RuleId, Finding>> = {};
  const valid = notification(order.status);
  out["webhook.unsigned"] = judge(
    [await send("webhook.unsigned", valid, undefined)],
    403,
    "Refused without a signature (403).",
    "A notification without X-Service-Signature was not refused with 403.",
  );
  out["webhook.wrong-secret"] = judge(
    [await send("webhook.wrong-secret", valid, sign(valid, wrongSecret(ctx.state, merchant.id)))],
    403,
    "Refused when signed with the client secret (403).",
    "A notification signed with the client secret was not refused with 403.",
  );
  // The bytes sent are pretty-printed; the signature is over the compact re-serialisation, which
  // is what a receiver that signs JSON.stringify(parsed body) computes.
  const pretty = JSON.stringify(JSON.parse(valid), null, 2);
  out["webhook.reserialised"] = judge(
    [await send("webhook.reserialised", pretty, sign(JSON.stringify(JSON.parse(pretty)), secret))],
    403,
    "Refused a signature over re-serialised JSON (403): the raw bytes are what is checked.",
    "A signature over re-serialised JSON, not over the bytes sent, was accepted.",
  );
  out["webhook.valid"] = judge(
    await signed("webhook.valid", valid),
    200,
    "A valid notification was answered exactly 200.",
    "A valid notification was not answered exactly 200.",
  );
  const duplicate = notification(order.status);
  out["webhook.duplicates"] = judge(
    await Promise.all(
      Array.from({ length: DUPLICATES }, () =>
        send("webhook.duplicates", duplicate, sign(duplicate, secret)),
      ),
    ),
    200,
    `The same notification ${DUPLICATES} times at once: 200 every time.`,
    `The same notification ${DUPLICATES} times at once was not answered 200 every time.`,
  );
  const newer = notification("payment_completed");
  const older = notification("pending", merchant.webhook_form, ctx.clock.now() - 60_000);
  out["webhook.out-of-order"] = judge(
    await signed("webhook.out-of-order", newer, older),
    200,
    "An older status after a newer one was accepted with 200.",
    "An older status after a newer one was not accepted with 200.",
  );
  out["webhook.body-forms"] = judge(
    await signed(
      "webhook.body-forms",
      notification(order.status, "flat"),
      notification(order.status, "wrapped"),
    ),
    200,
    "Both body forms (flat, and cart_id/status in data) were answered 200.",
    "Not both body forms were answered 200.",
  );
  out["webhook.unknown-status"] = judge(
    await signed("webhook.unknown-status", notification("under_review")),
    200,
    "A status the merchant does not know was answered 200.",
    "A status the merchant does not know was not answered 200.",
  );
  const slow = notification(order.status);
  out["webhook.slow-network"] = judge(
    [await send("webhook.slow-network", slow, sign(slow, secret), true)],
    200,
    "A body that arrived slowly was answered 200.",
    "A body that arrived slowly was not answered 200.",
  );
  return { target: order.order_id, findings: out };
}
