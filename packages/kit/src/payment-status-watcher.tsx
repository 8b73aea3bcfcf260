"use client";

import { useRouter } from "next/navigation.js";
import { useEffect, useRef, useState } from "react";
import { DEFAULT_PAYMENT_STATUS_MESSAGES, type PaymentStatusMessages } from "./shopper-texts.js";

const EVERY_MS = 2000;
/** About three minutes: the contract expects the webhook within about 5 seconds of payment. */
const MAX_REFRESHES = 90;

/**
 * On the confirmation page of a Service Pay order: the order is pending until the service's
 * signed webhook lands (contract, Events › Webhook). While it is, the page is refreshed politely
 * (every 2 s, only while the tab is visible, for at most about three minutes); when the status
 * moves on, the shopper reads "Payment confirmed" in a live region.
 */
export function PaymentStatusWatcher({
  pending,
  messages,
  className,
}: {
  pending: boolean;
  /** The shop's words for the two lines (English by default). */
  messages?: Partial<PaymentStatusMessages> | undefined;
  className?: string | undefined;
}) {
  const text = { ...DEFAULT_PAYMENT_STATUS_MESSAGES, ...messages };
  const router = useRouter();
  const [sawPending, setSawPending] = useState(pending);
  const refreshes = useRef(0);

  useEffect(() => {
    if (pending) setSawPending(true);
  }, [pending]);

  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible") return;
      if (refreshes.current >= MAX_REFRESHES) {
        clearInterval(timer);
        return;
      }
      refreshes.current += 1;
      router.refresh();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [pending, router]);

  return (
    <p role="status" className={className} data-testid="payment-status-message">
      {pending ? text.waiting : sawPending ? text.confirmed : ""}
    </p>
  );
}
