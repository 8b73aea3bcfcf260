/**
 * What happened to the trade-in of a card order (go-live scenario 2), in the shopper's words.
 * Nothing for a plain purchase (scenario 3: the service does not get in the way). A queued
 * registration is not the shopper's problem: the order is placed and the shop retries.
 */
export function TradeInNotice({
  status,
  message,
}: {
  status: string | null;
  message: string | null;
}) {
  if (status === "registered") {
    return (
      <p className="alert" data-testid="trade-in-outcome" data-outcome={status}>
        Your trade-in is registered with this order. The trade-in service pays its value back to you
        once it receives your device.
      </p>
    );
  }
  if (status === "queued") {
    return (
      <p className="alert" data-testid="trade-in-outcome" data-outcome={status}>
        Your order is placed. We are still confirming your trade-in with the trade-in service; this
        happens automatically and needs nothing from you.
      </p>
    );
  }
  if (status === "not_applied") {
    return (
      <p
        className="alert alert--error"
        role="status"
        data-testid="trade-in-outcome"
        data-outcome={status}
      >
        <strong>Trade-in not applied.</strong>{" "}
        {message ?? "The trade-in discount was not applied to this order."} Your order is placed and
        paid as shown.
      </p>
    );
  }
  return null;
}
