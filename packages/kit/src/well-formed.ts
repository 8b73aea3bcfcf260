import { z } from "zod";

/**
 * Strings that come in from outside (the order webhook's fields, the integration's routes)
 * are well-formed Unicode: a lone UTF-16 surrogate, which JSON can carry as an escape, cannot
 * be stored or sent on as UTF-8, so the body is refused as malformed (contract: Errors, 400)
 * before anything is stored. The shop has its own copy (lib/shop/well-formed.ts): this folder
 * imports nothing of the shop.
 */
export const NOT_WELL_FORMED =
  "contains a lone UTF-16 surrogate (not well-formed Unicode) or a NUL character";

/** `z.string()` that refuses strings that are not well-formed Unicode. */
export function wellFormedString(params?: Parameters<typeof z.string>[0]) {
  // NUL (U+0000) too: PostgreSQL's text cannot hold it.
  return z.string(params).refine((value) => value.isWellFormed() && !value.includes("\u0000"), {
    message: NOT_WELL_FORMED,
    abort: true,
  });
}
