// The shop's test card gateway. Outcomes are chosen by documented card numbers, as Stripe's
// test cards do, and the checkout page shows them as a hint.

export const TEST_CARDS = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
} as const;

export type ChargeResult =
  | { ok: true; reference: string }
  | { ok: false; reason: "declined" | "unknown_card" };

export function normaliseCardNumber(input: string): string {
  return input.replace(/[\s-]/g, "");
}

export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Charges a test card. Only the two documented numbers are known to the test gateway. */
export function chargeTestCard(cardNumber: string, amount: number): ChargeResult {
  const digits = normaliseCardNumber(cardNumber);
  if (digits === normaliseCardNumber(TEST_CARDS.success)) {
    return { ok: true, reference: `test_${digits.slice(-4)}_${amount}_${Date.now().toString(36)}` };
  }
  if (digits === normaliseCardNumber(TEST_CARDS.declined)) return { ok: false, reason: "declined" };
  return { ok: false, reason: "unknown_card" };
}
