import "server-only";
import { createHash } from "node:crypto";
import { type IntegrationEntry, inspectorKey, readIntegrationEntries } from "./integration-log.js";
import type { InspectorSource } from "./shop-ports.js";

/**
 * What the integration inspector's drawer polls (GET /api/service/inspector): this shopper's
 * server-side entries from the integration log (the shop's database), plus the order webhooks received for this
 * shopper's orders, read from the stored notifications (so the webhook's hot path writes nothing
 * extra). Only ever the caller's own session.
 */

/**
 * The drawer and this feed exist only with `INTEGRATION_INSPECTOR=on` (or 1/true): a demo aid,
 * off unless turned on, so a production shop that never heard of it does not show it
 * (docs/decisions/production-settings.md). The demo and the test stacks turn it on (.env.example).
 */
export function inspectorEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.INTEGRATION_INSPECTOR?.trim().toLowerCase();
  return value === "on" || value === "1" || value === "true";
}

/**
 * Who the feed belongs to, as the drawer may know it: a digest of the log's key (itself a digest
 * of the session id, which never leaves the server). The drawer keeps its browser-side entries in
 * the tab's sessionStorage; when the owner changes (sign-out, then another shopper signs in) it
 * drops what the previous shopper's pages recorded.
 */
export function inspectorOwner(sessionId: string): string {
  return createHash("sha256")
    .update(`inspector-owner:${inspectorKey(sessionId)}`)
    .digest("hex")
    .slice(0, 16);
}

/** The inspector drawer's entries of this shopper's session: the integration log's and the
 *  order webhooks stored for their orders. */
export async function inspectorFeed(
  shop: InspectorSource,
  sessionId: string,
): Promise<IntegrationEntry[]> {
  const server = await readIntegrationEntries(inspectorKey(sessionId));
  const notifications = await shop.sessionNotifications(sessionId);
  const webhooks: IntegrationEntry[] = notifications.map((n, i) => ({
    // Negative: never collides with the log's sequence numbers; the drawer orders by time.
    seq: -(i + 1),
    at: n.receivedAt.toISOString(),
    kind: n.event === "reconciliation" ? "step" : "webhook",
    label:
      n.event === "reconciliation"
        ? `reconciliation: ${n.status}`
        : `POST /order ${n.event ?? ""} ${n.status}`.replace(/\s+/g, " "),
    status: 200,
    ok: n.outcome !== "conflict" && n.outcome !== "held",
    detail: `order ${n.orderNumber}: ${n.outcome}`,
  }));
  return [...server, ...webhooks].sort((a, b) => a.at.localeCompare(b.at));
}
