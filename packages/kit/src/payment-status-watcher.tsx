"use client";

import { useRouter } from "next/navigation.js";
import { useEffect, useRef, useState } from "react";

const EVERY_MS = 2000;
/** About three minutes: the contract expects the webhook within about 5 seconds of payment. */
const MAX_REFRESHES = 90;

/**
 * On the confirmation page of a Service Pay order: the order is pending until the service's
 * signed webhook lands (contract, Events › Webhook). While it is, the page is refreshed politely
 * (every 2 s, only while the tab is visible, for at most about three minutes); when the status
 * moves on, the shopper reads "Payment confirmed" in a live region.
 */
export function PaymentStatusWatcher({ pending }: { pending: boolean }) {
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
    <p role="status" data-testid="payment-status-message">
      {pending
        ? "Waiting for the service to confirm your payment. This page updates by itself."
        : sawPending
          ? "Payment confirmed."
          : ""}
    </p>
  );
}
