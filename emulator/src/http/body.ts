import type { Context } from "hono";
import type { z } from "zod";
import type { EmulatorEnv } from "../context";
import { describeIssues } from "./cart";
import { fail } from "./errors";
import { describeDecimal, findDecimalNotation } from "./notation";

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** The request's media type without its parameters, lower-case: `application/json` of
 *  `Application/JSON; charset=utf-8`, "" when the request names none. */
export function mediaType(c: Context<EmulatorEnv>): string {
  return (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Reads a JSON body and validates it; a bad body answers 400 bad_request, never a 500. A number
 * written as a decimal in the text (`363.00`) is rejected before parsing drops its `.00`: every
 * number, or with `decimalKeys` only those under these keys (the control API's money).
 */
export async function readJson<S extends z.ZodType>(
  c: Context<EmulatorEnv>,
  schema: S,
  options: { decimalKeys?: ReadonlySet<string> } = {},
): Promise<Parsed<z.infer<S>>> {
  const text = await c.req.text().catch(() => "");
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return { ok: false, response: fail(c, 400, "bad_request", "The body is not valid JSON.") };
  }
  if (json === undefined) {
    return { ok: false, response: fail(c, 400, "bad_request", "A JSON body is required.") };
  }
  const decimal = findDecimalNotation(text, options.decimalKeys);
  if (decimal)
    return { ok: false, response: fail(c, 400, "bad_request", describeDecimal(decimal)) };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, response: fail(c, 400, "bad_request", describeIssues(parsed.error)) };
  }
  return { ok: true, value: parsed.data };
}
