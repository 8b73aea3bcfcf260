import { describe, expect, it } from "vitest";
import { Clock } from "../clock";
import { quote } from "./catalog";
import { SEED } from "./seed";
import { formatSessionId, parseSessionId, Store } from "./store";

describe("session ids", () => {
  it("formats and parses <hash>|NNN", () => {
    expect(formatSessionId("abc", 2)).toBe("abc|002");
    expect(parseSessionId("abc|002")).toEqual({ hash: "abc", version: 2 });
    expect(parseSessionId("abc")).toEqual({ hash: "abc", version: null });
    expect(parseSessionId("abc|2")).toBeNull();
    expect(parseSessionId("|001")).toBeNull();
  });

  it("keeps working past version 999: more digits, one canonical form", () => {
    expect(formatSessionId("abc", 1000)).toBe("abc|1000");
    expect(parseSessionId("abc|1000")).toEqual({ hash: "abc", version: 1000 });
    expect(parseSessionId("abc|0002")).toBeNull();
    expect(parseSessionId("abc|01000")).toBeNull();
  });
});

describe("Store", () => {
  it("binds, supersedes and looks sessions up by version", () => {
    const store = new Store(SEED, new Clock());
    store.bindSession("m_demo", "h");
    store.supersedeSession("m_demo", "h");
    expect(store.lookupSession("m_demo", "h")).toMatchObject({
      kind: "ok",
      version: { version: 2 },
    });
    expect(store.lookupSession("m_demo", "h|001").kind).toBe("gone");
    expect(store.lookupSession("m_demo", "h|003").kind).toBe("not_found");
    expect(store.lookupSession("m_demo", "h|002")).toMatchObject({ kind: "ok", via: "session_id" });
    expect(store.lookupSession("m_basic", "h").kind).toBe("not_found");
  });

  it("keeps one active trade-in per session and follows the one clock for expiry", () => {
    const clock = new Clock();
    const store = new Store(SEED, clock);
    const first = store.createTradeIn({
      merchant_id: "m_demo",
      session_hash: "h",
      value: 100,
      currency: "EUR",
    });
    const second = store.createTradeIn({
      merchant_id: "m_demo",
      session_hash: "h",
      value: 200,
      currency: "EUR",
    });
    expect(store.getTradeIn(first.id)?.status).toBe("cancelled");
    expect(store.activeTradeIn("m_demo", "h")?.id).toBe(second.id);
    expect(store.acceptTradeIn(second.id)?.status).toBe("accepted");
    // "now is after valid_until": at valid_until exactly the valuation is still valid.
    clock.set(store.getTradeIn(second.id)?.valid_until ?? 0, true);
    expect(store.lookupTradeIn("m_demo", second.id).kind).toBe("ok");
    clock.advance(1);
    expect(store.lookupTradeIn("m_demo", second.id).kind).toBe("gone");
    expect(store.activeTradeIn("m_demo", "h")).toBeUndefined();
    // It still follows the session to a new version; the session look-up no longer shows it.
    expect(store.sessionTradeIn("m_demo", "h")?.id).toBe(second.id);
  });

  it("round-trips through a snapshot", () => {
    const store = new Store(SEED, new Clock());
    store.createTradeIn({ merchant_id: "m_demo", session_hash: "h", value: 100, currency: "EUR" });
    const copy = new Store(SEED, new Clock());
    copy.restore(JSON.parse(JSON.stringify(store.snapshot())));
    expect(copy.activeTradeIn("m_demo", "h")?.value).toBe(100);
    expect(
      copy.createTradeIn({ merchant_id: "m_demo", session_hash: "x", value: 1, currency: "EUR" })
        .id,
    ).toBe("ti_000002");
  });
});

describe("catalog quote", () => {
  it("multiplies the base price by the answers' factors, rounded down to whole units", () => {
    const q = quote(
      SEED.catalog,
      "audio-echo-max",
      { powers_on: "yes", body: "worn", accessories: "partial" },
      "GBP",
    );
    expect(q).toMatchObject({ ok: true, value: 14100, currency: "GBP" }); // 185 × 0.85 × 0.9 = 141.52
    expect(quote(SEED.catalog, "audio-echo-max", { powers_on: "yes" }, "EUR").ok).toBe(false);
    expect(quote(SEED.catalog, "nope", {}, "EUR").ok).toBe(false);
    expect(quote(SEED.catalog, "audio-echo-max", {}, "USD").ok).toBe(false);
  });
});
