// What the cluster tests need beyond the single-instance suite's support: the control port of
// scripts/cluster.mjs (kill and restart an instance), which instance answered (nginx's
// X-Shop-Instance header), and the shared PostgreSQL database, read to count what was stored.
import type { Page, Response } from "@playwright/test";
import pg from "pg";
import { CLUSTER } from "../../playwright.cluster.config";
import { postgresUrl } from "../../scripts/postgres.mjs";

const control = (path: string, method = "GET") =>
  fetch(`http://127.0.0.1:${CLUSTER.control}${path}`, { method }).then(async (response) => {
    if (!response.ok) throw new Error(`cluster control ${path}: ${response.status}`);
    return (await response.json()) as { name: string; port: number; running: boolean }[];
  });

export const cluster = {
  instances: () => control("/instances"),
  /** SIGKILL: the instance dies as in a crash, mid-whatever it was doing. */
  kill: (n: number) => control(`/instances/${n}/stop`, "POST"),
  start: (n: number) => control(`/instances/${n}/start`, "POST"),
};

/** The instance (upstream address) nginx sent a response's request to. */
export function instanceOf(response: Response | globalThis.Response): string {
  const header =
    "headers" in response && typeof response.headers === "function"
      ? response.headers()["x-shop-instance"]
      : (response as globalThis.Response).headers.get("x-shop-instance");
  if (!header) throw new Error(`no X-Shop-Instance on ${response.url}`);
  return servingInstance(header);
}

/**
 * nginx's $upstream_addr lists every instance it tried ("a:3301, b:3302" when the first could
 * not be reached and the request went on to the next): the last one answered.
 */
function servingInstance(header: string): string {
  return header.split(",").at(-1)?.trim() ?? header;
}

/** Every instance that served one of this page's requests to the shop, from now on. */
export function instancesServing(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on("response", (response) => {
    const header = response.headers()["x-shop-instance"];
    if (header) seen.add(servingInstance(header));
  });
  return seen;
}

/** One query on the cluster's database. */
export async function query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgresUrl(CLUSTER.database) });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * An order's stored history, oldest first, as "from→to by source" ("new" for its creation).
 * A row whose status stays the same records a change of the order's amounts.
 */
export async function orderHistory(orderNumber: string) {
  const rows = await query<{ from: string | null; to: string; source: string }>(
    `SELECT c."from", c."to", c."source" FROM "OrderStatusChange" c
       JOIN "Order" o ON o."id" = c."orderId"
      WHERE o."number" = $1 ORDER BY c."createdAt", c."id"`,
    [orderNumber],
  );
  return rows.map((r) => `${r.from ?? "new"}→${r.to} by ${r.source}`);
}

/**
 * A Service Pay order with an accepted trade-in, paid exactly once: created pending, the
 * accepted valuation's discount put on it at once (what the service's window takes off), then
 * one transition to payment_completed however many copies of the notification arrived.
 */
export const PAID_ONCE = [
  "new→pending by shop",
  "pending→pending by shop",
  "pending→payment_completed by service",
];
