// The readings of the contract the emulator offers as merchant settings (emulator/README.md,
// fidelity table: Sessions). The suite's default project runs against the defaults (the public
// docs' as-is re-query, `<hash>|NNN` session ids, the trade-in item as an object); each variant
// below is one more Playwright project that runs the session, trade-in and Service Pay journeys
// (tests tagged @variants) with the emulator's m_demo switched to it through the control API.
import type { MerchantPatch } from "./emulator";

export const SERVICE_VARIANTS: { name: string; merchant: MerchantPatch }[] = [
  // The contract's wording: the hash is regenerated from the returned session_id.
  { name: "session versioning regenerate", merchant: { session_versioning: "regenerate" } },
  // The public docs' example: tradein_item is the item's id.
  { name: "tradein_item as an id", merchant: { tradein_item_form: "id" } },
  // The public docs' example: session_id is an opaque id.
  { name: "opaque UUID session_id", merchant: { session_id_form: "uuid" } },
];

export const VARIANTS_TAG = "@variants";
