// The merchant's Service Pay radio (contract: Payment option markup; public-docs-facts: Service
// Pay option). The SDK recognises it the way the service's own SDK does: by its
// `data-module-name`. One name, written in emulator/README.md ("Browser SDK").

export const MODULE_NAME = "servicepay";

const OPTION = 'input[type="radio"][name="payment_method"]';

let warned = false;

/**
 * The page's Service Pay radio, or null. A radio that looks like it (value `service_pay`) under
 * another module name is not recognised, and the console says why, once per page.
 */
export function findPaymentOption(): HTMLInputElement | null {
  const option = document.querySelector<HTMLInputElement>(
    `${OPTION}[data-module-name="${MODULE_NAME}"]`,
  );
  if (option) return option;
  if (!warned) {
    const lookalike = document.querySelector<HTMLInputElement>(`${OPTION}[value="service_pay"]`);
    warned = true;
    console.warn(
      lookalike
        ? `[service] the payment option is not recognised: its data-module-name is ${JSON.stringify(lookalike.dataset.moduleName ?? null)}, the service's module name is "${MODULE_NAME}".`
        : `[service] no payment option found: a radio named payment_method with data-module-name="${MODULE_NAME}" is needed for Service Pay.`,
    );
  }
  return null;
}
