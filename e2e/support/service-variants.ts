// The readings of the contract the emulator offers as merchant settings (emulator/README.md,
// fidelity table: Sessions). The suite runs against the defaults (the public docs' as-is
// re-query, `<hash>|NNN` session ids, the trade-in item as an object); the session, trade-in and
// Service Pay journeys whose behaviour differs by reading (testInEveryServiceReading, tagged
// @variants) run once more per variant below, with the emulator's m_demo switched to it through
// the control API. In the same project and workers as the rest: a project per variant cost a
// fresh worker and browser for each, and held the run's end until its last copy.
import type { MerchantPatch } from "./emulator";
import { test } from "./fixtures";

export const SERVICE_VARIANTS: { name: string; merchant: MerchantPatch }[] = [
  // The contract's wording: the hash is regenerated from the returned session_id.
  { name: "session versioning regenerate", merchant: { session_versioning: "regenerate" } },
  // The public docs' example: tradein_item is the item's id.
  { name: "tradein_item as an id", merchant: { tradein_item_form: "id" } },
  // The public docs' example: session_id is an opaque id.
  { name: "opaque UUID session_id", merchant: { session_id_form: "uuid" } },
];

export const VARIANTS_TAG = "@variants";

/**
 * Declares the journeys `declare` declares (with `test`, tagged VARIANTS_TAG) whose behaviour
 * differs by the service's reading of the contract: once against the emulator's defaults, then
 * once per variant in a describe block "service variant: …" whose tests switch m_demo to it (the
 * `emulator` fixture applies it right after its reset, so the journey must use that fixture).
 */
export function inEveryServiceReading(declare: () => void): void {
  declare();
  for (const variant of SERVICE_VARIANTS) {
    test.describe(`service variant: ${variant.name}`, () => {
      test.use({ serviceMerchant: variant.merchant });
      declare();
    });
  }
}
