import { z } from "zod";
import type { OrderFilters } from "./orders";

type Params = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .transform((s) => new Date(`${s}T00:00:00Z`))
  .refine((d) => !Number.isNaN(d.getTime()));

/** Back-office order filters from the query string; invalid values are ignored, never a 500. */
export function parseOrderFilters(params: Params): OrderFilters & { raw: Record<string, string> } {
  const raw = {
    status: first(params.status)?.slice(0, 64) ?? "",
    payment: first(params.payment)?.slice(0, 64) ?? "",
    q: first(params.q)?.slice(0, 100) ?? "",
    from: first(params.from) ?? "",
    to: first(params.to) ?? "",
  };
  const from = day.safeParse(raw.from);
  const to = day.safeParse(raw.to);
  return {
    raw,
    ...(raw.status ? { status: raw.status } : {}),
    ...(raw.payment ? { paymentMethod: raw.payment } : {}),
    ...(raw.q ? { query: raw.q } : {}),
    ...(from.success ? { from: from.data } : {}),
    // "to" is inclusive for people: orders on that day are in.
    ...(to.success ? { to: new Date(to.data.getTime() + 86_400_000) } : {}),
  };
}
