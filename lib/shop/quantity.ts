import { z } from "zod";

/**
 * A quantity as a form posts it: plain decimal digits only. `z.coerce.number()` would take
 * " 2", "0x2", "2e0", "2.0" or "" (as 0); a form value like that is refused, never guessed at.
 */
export function quantityField(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,6}$/, "must be a whole number written with digits only")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
