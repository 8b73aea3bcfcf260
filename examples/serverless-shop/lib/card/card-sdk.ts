// A local stand-in shaped like a card processor's browser SDK: load it, then confirm the payment
// in the browser from the checkout form's onSubmit; the shop's server places the order against
// the confirmed payment. Its "processor" is the shop's own route (app/api/card-processor), so
// nothing leaves the shop.

export interface ConfirmedPayment {
  paymentId: string;
}

export interface CardSdk {
  /** Confirms a payment of `amount` cents; the processor's answer, or why it was refused. */
  confirmPayment(params: {
    amount: number;
    currency: "EUR";
  }): Promise<ConfirmedPayment | { error: string }>;
}

/** Loads the SDK (a real one injects its script here). */
export async function loadCard(): Promise<CardSdk> {
  return {
    async confirmPayment(params) {
      const response = await fetch("/api/card-processor/confirm", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
      });
      if (!response.ok) return { error: `card refused (${response.status})` };
      return (await response.json()) as ConfirmedPayment;
    },
  };
}
