import { describe, expect, it, vi } from "vitest";
import { ServiceApiError } from "./errors.js";
import type { Session, TradeInItem } from "./resources.js";
import { checkSessionTradeIn, lookupSession, SessionLookupError } from "./session-lookup.js";

const gone = (): never => {
  throw new ServiceApiError({ status: 410, method: "GET", path: "/core/sessions/x/" });
};
const notFound = () =>
  new ServiceApiError({ status: 404, method: "GET", path: "/core/sessions/x/" });
const item: TradeInItem = { id: "t1", status: "accepted", valid_until: "2026-01-02T00:00:00Z" };

/** A fake client answering session lookups from a table; a function entry may throw. */
function fakeClient(
  sessions: Record<string, Session | (() => never)>,
  items: Record<string, TradeInItem | (() => never)> = {},
) {
  const getSession = vi.fn(async (key: string) => {
    const entry = sessions[key];
    if (!entry) throw notFound();
    return typeof entry === "function" ? entry() : entry;
  });
  const getTradeInItem = vi.fn(async (id: string) => {
    const entry = items[id];
    if (!entry) throw notFound();
    return typeof entry === "function" ? entry() : entry;
  });
  return { getSession, getTradeInItem };
}

describe("lookupSession", () => {
  it("follows a different session_id exactly as returned and uses the final trade-in", async () => {
    const client = fakeClient({
      abc: { session_id: "abc|001" },
      "abc|001": { session_id: "abc|002", note: "cart changed" },
      "abc|002": { session_id: "abc|002", tradein_item: item },
    });
    const result = await lookupSession(client, "abc");
    expect(result).toMatchObject({
      kind: "found",
      sessionId: "abc|002",
      queried: ["abc", "abc|001", "abc|002"],
      tradeIn: { kind: "item", item },
    });
  });

  it("takes the contract's reading too: a 404 for <hash>|NNN means the hash answer was final", async () => {
    // The service regenerates: its path takes a session hash, and the hash regenerated from
    // "abc|002" is "abc", the one just queried.
    const client = fakeClient({
      abc: { session_id: "abc|002", note: "cart changed", tradein_item: item },
    });
    expect(await lookupSession(client, "abc")).toMatchObject({
      kind: "found",
      sessionId: "abc|002",
      queried: ["abc", "abc|002"],
      tradeIn: { kind: "item", item },
    });
  });

  it("follows an opaque session_id as returned, and a 404 for it is not a regenerated hash", async () => {
    const uuid = "0b6f3c1e-2f6a-4d53-9c1e-7d3b7a0c9e11";
    const followed = fakeClient({
      abc: { session_id: uuid },
      [uuid]: { session_id: uuid, tradein_item: item },
    });
    expect(await lookupSession(followed, "abc")).toMatchObject({
      kind: "found",
      sessionId: uuid,
      tradeIn: { kind: "item", item },
    });
    const vanished = fakeClient({ abc: { session_id: uuid } });
    expect(await lookupSession(vanished, "abc")).toMatchObject({ kind: "not_found" });
    const otherHash = fakeClient({ abc: { session_id: "xyz|002" } });
    expect(await lookupSession(otherHash, "abc")).toMatchObject({ kind: "not_found" });
  });

  it("stops at once when the session_id equals the key", async () => {
    const client = fakeClient({ s: { session_id: "s" } });
    expect(await lookupSession(client, "s")).toMatchObject({
      kind: "found",
      tradeIn: { kind: "none" },
    });
    expect(client.getSession).toHaveBeenCalledTimes(1);
  });

  it("reports 404 as not_found and a 410 for the given hash as superseded", async () => {
    expect(await lookupSession(fakeClient({}), "zz")).toEqual({
      kind: "not_found",
      queried: ["zz"],
    });
    const old = fakeClient({ "abc|001": gone });
    expect(await lookupSession(old, "abc|001")).toEqual({
      kind: "superseded",
      queried: ["abc|001"],
    });
  });

  it("starts over from the given hash when a followed version is superseded meanwhile", async () => {
    let round = 0;
    const client = fakeClient({
      abc: () => ({ session_id: round++ === 0 ? "abc|001" : "abc|002" }) as never,
      "abc|001": gone,
      "abc|002": { session_id: "abc|002" },
    });
    const result = await lookupSession(client, "abc");
    expect(result).toMatchObject({ kind: "found", queried: ["abc", "abc|001", "abc", "abc|002"] });
  });

  it("is bounded: a service that keeps pointing elsewhere ends in SessionLookupError", async () => {
    const client = {
      getSession: vi.fn(async (key: string) => ({ session_id: `${key}+` })),
      getTradeInItem: vi.fn(),
    };
    await expect(lookupSession(client, "a", { maxQueries: 4 })).rejects.toBeInstanceOf(
      SessionLookupError,
    );
    expect(client.getSession).toHaveBeenCalledTimes(4);
  });

  it("is bounded for a cycle between two ids", async () => {
    const client = fakeClient({ a: { session_id: "b" }, b: { session_id: "a" } });
    await expect(lookupSession(client, "a")).rejects.toBeInstanceOf(SessionLookupError);
    expect(client.getSession).toHaveBeenCalledTimes(5);
  });

  it("fetches the trade-in when tradein_item is an id, and maps 404/410", async () => {
    const found = await lookupSession(
      fakeClient({ s: { session_id: "s", tradein_item: "t1" } }, { t1: item }),
      "s",
    );
    expect(found).toMatchObject({ tradeIn: { kind: "item", item } });

    const expired = await lookupSession(
      fakeClient({ s: { session_id: "s", tradein_item: { id: "t9" } } }, { t9: gone }),
      "s",
    );
    expect(expired).toMatchObject({ tradeIn: { kind: "lookup_failed", problem: "expired" } });

    const unknown = await lookupSession(
      fakeClient({ s: { session_id: "s", tradein_item: "t404" } }),
      "s",
    );
    expect(unknown).toMatchObject({ tradeIn: { kind: "lookup_failed", problem: "unknown" } });
  });

  it("passes on failures that are not about the session", async () => {
    const boom = (): never => {
      throw new ServiceApiError({ status: 500, method: "GET", path: "/p/" });
    };
    await expect(lookupSession(fakeClient({ s: boom }), "s")).rejects.toMatchObject({
      status: 500,
    });
  });
});

describe("checkSessionTradeIn", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it("turns the session's trade-in into a usability verdict", () => {
    expect(checkSessionTradeIn({ kind: "none" }, now)).toMatchObject({ problem: "missing" });
    expect(checkSessionTradeIn({ kind: "lookup_failed", problem: "expired" }, now)).toMatchObject({
      problem: "expired",
    });
    expect(checkSessionTradeIn({ kind: "item", item }, now)).toMatchObject({ usable: true });
  });
});
