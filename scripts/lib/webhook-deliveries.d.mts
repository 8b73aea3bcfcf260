// Types of the parts of scripts/lib/webhook-deliveries.mjs that TypeScript imports (webhook-apply-cost).
export interface SignedDelivery {
  id: string;
  body: string;
  signature: string;
}

export function benchCartId(order: number): string;

export function signedDeliveries(options: {
  count: number;
  orders: number;
  duplicateShare: number;
  secret: string;
}): SignedDelivery[];
