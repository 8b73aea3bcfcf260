// The nine browser events of the contract (Events: SDK browser events), all dispatched on window.

export type ServiceEventName =
  | "service-ready"
  | "service-valuation-updated"
  | "service-payment-completed"
  | "service-modal-closed"
  | "servicepay-payment-method-selected"
  | "servicepay-payment-method-unselected"
  | "service-ready-to-place-order"
  | "service-new-user-valuation-started"
  | "service-purchase-updated";

export function emit(name: ServiceEventName, detail: object | null = null): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}
