"use client";

import { noteValuationUpdated } from "@service-integration/kit/react";
import { useEffect } from "react";

/**
 * Tells the shop which trade-in the shopper accepted (SDK event service-valuation-updated, whose
 * detail carries `tradein_id` in the bundled SDK), so a later card payment can say "your
 * valuation expired" rather than nothing when the service stops listing it. Renders nothing.
 */
export function TradeInMemo() {
  useEffect(() => {
    const handler = (event: Event) => {
      const detail = (event as CustomEvent).detail as { tradein_id?: unknown } | null;
      noteValuationUpdated(detail);
      if (typeof detail?.tradein_id !== "string") return;
      void fetch("/api/service/trade-in-seen", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tradein_id: detail.tradein_id }),
        keepalive: true,
      }).catch(() => {
        // Only an explanation is lost; the purchase decision is the service's.
      });
    };
    window.addEventListener("service-valuation-updated", handler);
    return () => window.removeEventListener("service-valuation-updated", handler);
  }, []);
  return null;
}
