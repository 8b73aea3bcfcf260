import "server-only";
import type { ServiceClient } from "./client.js";
import { SERVICE_ERROR_KIND, ServiceApiError, ServiceError } from "./errors.js";
import type { Session, TradeInItem } from "./resources.js";
import {
  checkTradeIn,
  type TradeInCheck,
  tradeInProblem,
  tradeInProblemFromError,
} from "./trade-in.js";

/**
 * Session lookup that follows session versions (contract: States › Session version;
 * public-docs-facts: Sessions). When the answer's `session_id` differs from what was queried,
 * the session was superseded (cart change, merged valuations): query again with the returned id
 * exactly as returned (`<hash>|NNN` path-encoded by the client, or an opaque id) and use the
 * trade-in data of the final answer (the public docs' reading). A service that takes the
 * contract's reading instead ("regenerates the session hash from the new session_id") answers
 * 404 to a `<hash>|NNN` in the path: the hash regenerated from that session_id is the one just
 * queried, so that answer is final. Either reading works without configuration. Bounded: at most
 * `maxQueries` session requests, so no loop runs forever.
 */

const DEFAULT_MAX_SESSION_QUERIES = 5;

/** The session's trade-in: none, the item, or an item id whose lookup failed. */
export type SessionTradeIn =
  /** No `tradein_item`: no active trade-in (public-docs-facts: Sessions). */
  | {
      /** No active trade-in. */
      kind: "none";
    }
  | {
      /** The trade-in item (inline, or fetched by its id). */
      kind: "item";
      /** The item as the service answered it. */
      item: TradeInItem;
    }
  /** `tradein_item` was an id and fetching it answered 404 (unknown) or 410 (expired). */
  | {
      /** Its lookup failed. */
      kind: "lookup_failed";
      /** 404: unknown; 410: expired. */
      problem: "unknown" | "expired";
    };

/** How a session lookup ended: found (with its final version), not found, or superseded. */
export type SessionLookup =
  | {
      /** The session was found. */
      kind: "found";
      /** The final answer. */
      session: Session;
      /** The final `session_id`; send this, as returned, when the service needs the session. */
      sessionId: string;
      /** Every key queried, in order (for logs and the integration inspector). */
      queried: string[];
      /** The final answer's trade-in. */
      tradeIn: SessionTradeIn;
    }
  /** 404: unknown or expired session hash. */
  | {
      /** 404 for a hash queried. */
      kind: "not_found";
      /** Every key queried, in order. */
      queried: string[];
    }
  /** 410 for the hash we were given: that version is superseded and nothing newer is known. */
  | {
      /** 410 for the hash given. */
      kind: "superseded";
      /** Every key queried, in order. */
      queried: string[];
    };

/** The session kept moving to new versions past `maxQueries` lookups. */
export class SessionLookupError extends ServiceError {
  /** The class's kind, "SessionLookupError": how another copy of this module recognises it. */
  static override readonly [SERVICE_ERROR_KIND] = "SessionLookupError";
  constructor(
    /** Every key queried, in order. */
    readonly queried: string[],
  ) {
    super(`Session did not settle after ${queried.length} queries: ${queried.join(" → ")}`);
  }
}

type Client = Pick<ServiceClient, "getSession" | "getTradeInItem">;

/** Looks the session of `sessionHash` up, following its versions (at most `maxQueries`, default
 *  5, else SessionLookupError), and its trade-in item when only its id was answered. */
export async function lookupSession(
  client: Client,
  sessionHash: string,
  options: { maxQueries?: number } = {},
): Promise<SessionLookup> {
  const maxQueries = options.maxQueries ?? DEFAULT_MAX_SESSION_QUERIES;
  const queried: string[] = [];
  let key = sessionHash;
  /** The answer that sent us to `key`, with the key it answered. */
  let previous: { key: string; session: Session } | null = null;
  while (queried.length < maxQueries) {
    queried.push(key);
    let session: Session;
    try {
      session = await client.getSession(key);
    } catch (error) {
      if (!(error instanceof ServiceApiError)) throw error;
      if (error.status === 404 && previous && regeneratesTo(key, previous.key)) {
        return found(client, previous.session, queried);
      }
      if (error.status === 404) return { kind: "not_found", queried: [...queried] };
      if (error.status === 410) {
        if (key === sessionHash) return { kind: "superseded", queried: [...queried] };
        // A version we were sent to was superseded in between (the cart changed again): start
        // over from the hash we were given, which names the session rather than one version.
        key = sessionHash;
        continue;
      }
      throw error;
    }
    if (session.session_id === key) return found(client, session, queried);
    previous = { key, session };
    key = session.session_id;
  }
  throw new SessionLookupError(queried);
}

/** Whether `<hash>|NNN` regenerates to the hash just queried (the contract's reading). */
function regeneratesTo(sessionId: string, queriedHash: string): boolean {
  return (
    sessionId.startsWith(`${queriedHash}|`) &&
    /^\d{3,}$/.test(sessionId.slice(queriedHash.length + 1))
  );
}

async function found(client: Client, session: Session, queried: string[]): Promise<SessionLookup> {
  return {
    kind: "found",
    session,
    sessionId: session.session_id,
    queried: [...queried],
    tradeIn: await resolveTradeIn(client, session),
  };
}

/** The session's trade-in as usable/unusable, for the purchase decision (trade-in.ts). */
export function checkSessionTradeIn(tradeIn: SessionTradeIn, now: Date): TradeInCheck {
  if (tradeIn.kind === "none") return tradeInProblem("missing");
  if (tradeIn.kind === "lookup_failed") return tradeInProblem(tradeIn.problem);
  return checkTradeIn(tradeIn.item, now);
}

async function resolveTradeIn(client: Client, session: Session): Promise<SessionTradeIn> {
  const ref = session.tradein_item;
  if (ref === undefined || ref === null) return { kind: "none" };
  // The contract's object form carries the item; use it as is when it has a status.
  if (typeof ref === "object" && ref.status !== undefined) return { kind: "item", item: ref };
  // The public docs' form is an id (or an object with only an id): fetch the item.
  const id = typeof ref === "string" ? ref : ref.id;
  if (id === undefined) return { kind: "none" };
  try {
    return { kind: "item", item: await client.getTradeInItem(id) };
  } catch (error) {
    const problem = tradeInProblemFromError(error);
    if (problem === "unknown" || problem === "expired") return { kind: "lookup_failed", problem };
    throw error;
  }
}
