import "server-only";
import type { ShopperIdentity } from "@service-integration/kit";
import {
  errorJson,
  invalidFieldsResponse as invalidFieldsAnswer,
  readJsonBody,
} from "@service-integration/kit/server";
import type { z } from "zod";
import { shopSessionIdentity } from "./request-session";

/** How the checkout form labels a field (lib/ui/checkout-form.tsx, lib/ui/address-fields.tsx). */
const FIELD_LABELS: Record<string, string> = {
  given_name: "first name",
  family_name: "last name",
  address: "street address",
  city: "town or city",
  state: "county or region",
  postal_code: "postal code",
  country_code: "country",
  shipping_method: "delivery method",
};

/** 400 for a body that failed its schema, naming the fields as the checkout form labels them
 *  (the kit's invalidFieldsResponse). */
export function invalidFieldsResponse(error: z.ZodError): Response {
  return invalidFieldsAnswer(error, FIELD_LABELS);
}

export interface SessionJsonMessages {
  /** 401 description when the request has no shop session. */
  noSession?: string;
  /** 400 for a body that fails the schema; default: invalidFieldsResponse. */
  invalid?: (error: z.ZodError) => Response;
}

/**
 * The common start of the shop's own same-origin POST routes: the shopper's session (401
 * without one), the JSON body (415 / 400, see readJsonBody), then the schema (400).
 */
export async function readSessionJson<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  messages: SessionJsonMessages = {},
): Promise<
  { ok: true; session: ShopperIdentity; data: z.output<Schema> } | { ok: false; response: Response }
> {
  const session = await shopSessionIdentity.ofRequest(request);
  if (!session) {
    const description = messages.noSession ?? "No shop session: reload the page.";
    return { ok: false, response: errorJson(401, "unauthorized", description) };
  }
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    return { ok: false, response: (messages.invalid ?? invalidFieldsResponse)(parsed.error) };
  }
  return { ok: true, session, data: parsed.data };
}
