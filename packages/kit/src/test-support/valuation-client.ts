import type { ValuationClient } from "../accepted-valuation.js";
import { ServiceApiError, ServiceNetworkError } from "../errors.js";
import { sessionSchema, tradeInItemSchema } from "../resources.js";

/**
 * Tests only: service clients for the payment start's valuation look-up (accepted-valuation.ts),
 * answering every session hash alike, parsed as the real client parses them (resources.ts).
 * Each records the hashes it was asked for.
 */

/** A ValuationClient of the tests that records what it was asked. */
export interface FakeValuationClient extends ValuationClient {
  /** Every session hash asked for, in order. */
  asked: string[];
}

function client(
  answer: (hash: string) => Promise<unknown>,
  items: Record<string, unknown> = {},
): FakeValuationClient {
  const asked: string[] = [];
  return {
    asked,
    getSession: async (hash) => {
      asked.push(hash);
      return sessionSchema.parse(await answer(hash));
    },
    getTradeInItem: async (id) => {
      asked.push(`item ${id}`);
      if (items[id]) return tradeInItemSchema.parse(items[id]);
      throw new ServiceApiError({ status: 404, method: "GET", path: `/core/tradeinitems/${id}/` });
    },
  };
}

/** The session has this trade-in item: the contract's object form, or (`form: "id"`) the
 *  public docs' id, fetched from GET /core/tradeinitems/{id}/. */
export function serviceWithTradeIn(
  item: Record<string, unknown> & { id?: string },
  options: { form?: "object" | "id" } = {},
): FakeValuationClient {
  if (options.form === "id" && item.id) {
    const id = item.id;
    return client(async (hash) => ({ session_id: hash, tradein_item: id }), { [id]: item });
  }
  return client(async (hash) => ({ session_id: hash, tradein_item: item }));
}

/** An accepted valuation of `value` cents in `currency`, as the bundled emulator answers it. */
export function serviceWithValuation(value: number, currency = "EUR"): FakeValuationClient {
  return serviceWithTradeIn({
    id: "tradein_1",
    status: "accepted",
    valid_until: "2099-01-01T00:00:00.000Z",
    value,
    currency,
  });
}

/** The session has no trade-in. */
export function serviceWithoutTradeIn(): FakeValuationClient {
  return client(async (hash) => ({ session_id: hash }));
}

/** The service cannot be reached (connection refused). */
export function serviceDown(): FakeValuationClient {
  return client(async () => {
    throw new ServiceNetworkError("GET", "/core/sessions/", { cause: new Error("ECONNREFUSED") });
  });
}

/** The service never answers (the look-up's deadline decides). */
export function serviceHanging(): FakeValuationClient {
  return client(() => new Promise(() => {}));
}
