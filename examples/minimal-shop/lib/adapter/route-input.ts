import "server-only";
import type { ShopperIdentity } from "@service-integration/kit";
import { errorJson, readJsonBody } from "@service-integration/kit/server";
import type { z } from "zod";
import { miniSessionIdentity } from "./identity";

/** The shop's same-origin JSON POSTs: the session (401), the JSON body (415/400), the schema (400). */
export async function readSessionJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<
  { ok: true; session: ShopperIdentity; data: z.output<S> } | { ok: false; response: Response }
> {
  const session = await miniSessionIdentity.ofRequest(request);
  if (!session)
    return {
      ok: false,
      response: errorJson(401, "unauthorized", "No shop session: reload the page."),
    };
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(" ")))].join(", ");
    return { ok: false, response: errorJson(400, "bad_request", `Check these fields: ${fields}.`) };
  }
  return { ok: true, session, data: parsed.data };
}
