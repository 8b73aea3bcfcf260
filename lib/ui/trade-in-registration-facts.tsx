import { getDb } from "@/lib/db/client";

/** The back office's view of a card order's register-purchase row (contract: POST /register-purchase): its state, how
 *  many attempts, when the retry job tries next, and the last failure. */
export async function TradeInRegistrationFacts({ orderId }: { orderId: string }) {
  const row = await getDb().tradeInRegistration.findUnique({ where: { orderId } });
  if (!row) return <>—</>;
  const state =
    row.status === "no_trade_in" ? "no trade-in in the session" : row.status.replace(/_/g, " ");
  return (
    <>
      {state}
      {row.reason ? ` (${row.reason})` : ""}, {row.attempts}{" "}
      {row.attempts === 1 ? "attempt" : "attempts"}
      {row.status === "queued" && row.nextAttemptAt
        ? `, next ${row.nextAttemptAt.toISOString().slice(11, 19)} UTC`
        : ""}
      {row.lastError ? (
        <>
          <br />
          <small>Last answer: {row.lastError}</small>
        </>
      ) : null}
    </>
  );
}
