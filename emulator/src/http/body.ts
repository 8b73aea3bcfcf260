import type { Context } from "hono";
import type { z } from "zod";
import type { EmulatorEnv } from "../context";
import { describeIssues } from "./cart";
import { fail } from "./errors";

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Reads a JSON body and validates it; a bad body answers 400 bad_request, never a 500. */
export async function readJson<S extends z.ZodType>(
  c: Context<EmulatorEnv>,
  schema: S,
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
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, response: fail(c, 400, "bad_request", describeIssues(parsed.error)) };
  }
  return { ok: true, value: parsed.data };
}
