"use client";

import { useSyncExternalStore } from "react";

/**
 * The delivery the checkout form has selected, for the order summary beside it: the summary's
 * "to pay" includes the same delivery as the form's, and the service's Cart
 * (docs/decisions/delivery-in-the-cart.md). One value per browser tab; the form publishes it.
 */
export interface DeliveryShown {
  name: string;
  price: number;
}

let selected: DeliveryShown | null = null;
const listeners = new Set<() => void>();

export function selectDelivery(delivery: DeliveryShown | null): void {
  selected = delivery;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The checkout's selected delivery, or `fallback` before the form has published one. */
export function useSelectedDelivery(fallback: DeliveryShown): DeliveryShown {
  return (
    useSyncExternalStore(
      subscribe,
      () => selected,
      () => null,
    ) ?? fallback
  );
}
