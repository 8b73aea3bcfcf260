import { z } from "zod";

/**
 * Every string the shop accepts from a request is well-formed Unicode: a lone UTF-16 surrogate
 * (`"1 Main\ud800"`, which JSON can carry as an escape) cannot be stored in PostgreSQL or sent
 * on as UTF-8 (nor can NUL, U+0000, be stored in PostgreSQL's text), so it is refused at the
 * boundary with the field named, like any other bad value
 * (docs/security.md, "Bodies and inputs"). The kit has its own copy: it imports nothing of
 * the shop.
 */
export const NOT_WELL_FORMED = "Contains a broken character: retype it.";

/** Well-formed Unicode, and no NUL: PostgreSQL's text cannot hold U+0000 either. */
export function isWellFormedText(value: string): boolean {
  return value.isWellFormed() && !value.includes("\u0000");
}

/** `z.string()` that refuses strings that are not well-formed Unicode. */
export function wellFormedString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isWellFormedText, { message: NOT_WELL_FORMED, abort: true });
}
