import { describe, expect, it } from "vitest";
import type { JournalEntry } from "../journal";
import { evaluatePassive } from "./passive";

// The passive rules on hand-written journals: what a correct merchant does under concurrency
// must pass, and the near-miss must fail (the careless merchant's end-to-end cases are in
// emulator/test/readiness.test.ts).

let seq = 0;
function entry(fields: Partial<JournalEntry> & Pick<JournalEntry, "path" | "status" | "at">) {
  seq += 1;
  return {
    seq,
    kind: "request",
    method: "GET",
    duration_ms: 1,
    client_id: "c",
    ...fields,
  } as JournalEntry;
}
const token = (at: number, grant: "password" | "refresh_token", access: string, status = 200) =>
  entry({
    at,
    method: "POST",
    path: "/oauth2/token/",
    status,
    request_headers: { authorization: "Basic x" },
    request_body: `grant_type=${grant}`,
    ...(status === 200 ? { response_body: { access_token: access, expires_in: 3600 } } : {}),
  });
const call = (at: number, access: string, status: number) =>
  entry({
    at,
    path: "/core/merchants/",
    status,
    request_headers: { authorization: `Bearer ${access}` },
  });

function judge(entries: JournalEntry[]) {
  return evaluatePassive({
    merchantId: "m",
    entries,
    epoch: 1,
    merchantOf: () => "m",
    webhookBase: "http://shop/hooks",
    declared: [],
    notifications: [],
  });
}

describe("token.refresh-on-401", () => {
  it("passes three concurrent 401s answered by one refresh, and ignores a late 401 of a replaced token", () => {
    const found = judge([
      token(0, "password", "a"),
      call(10, "a", 200),
      call(4_000_000, "a", 401),
      call(4_000_001, "a", 401),
      call(4_000_002, "a", 401),
      token(4_000_010, "refresh_token", "b"),
      call(4_000_020, "b", 200),
      call(4_000_021, "a", 401),
      call(4_000_030, "b", 200),
    ]);
    expect(found["token.refresh-on-401"]?.verdict).toBe("pass");
  });

  it("fails two refreshes for one 401, and a login without a refresh", () => {
    expect(
      judge([
        token(0, "password", "a"),
        call(4_000_000, "a", 401),
        token(4_000_010, "refresh_token", "b"),
        token(4_000_011, "refresh_token", "c"),
        call(4_000_020, "c", 200),
      ])["token.refresh-on-401"]?.verdict,
    ).toBe("fail");
    expect(
      judge([
        token(0, "password", "a"),
        call(4_000_000, "a", 401),
        token(4_000_010, "password", "b"),
        call(4_000_020, "b", 200),
      ])["token.refresh-on-401"]?.verdict,
    ).toBe("fail");
  });

  it("passes a refresh that failed followed by a login (the contract's fallback)", () => {
    const found = judge([
      call(0, "gone", 401),
      token(10, "refresh_token", "", 400),
      token(20, "password", "b"),
      call(30, "b", 200),
    ]);
    expect(found["token.refresh-on-401"]?.verdict).toBe("pass");
  });
});

describe("token.reuse", () => {
  it("tolerates two logins racing at start-up and fails the third while a token still works", () => {
    const two = [token(0, "password", "a"), token(5, "password", "b"), token(6, "password", "c")];
    expect(judge(two)["token.reuse"]?.verdict).toBe("pass");
    expect(judge([...two, token(7, "password", "d")])["token.reuse"]?.verdict).toBe("fail");
  });
});

describe("api.backoff", () => {
  const refused = (at: number) =>
    entry({ ...call(at, "a", 429), response_headers: { "retry-after": "2" } });
  it("passes a retry after Retry-After and fails one before it", () => {
    expect(judge([refused(0), call(2_000, "a", 200)])["api.backoff"]?.verdict).toBe("pass");
    expect(judge([refused(0), call(300, "a", 200)])["api.backoff"]?.verdict).toBe("fail");
  });

  it("does not count another request to the endpoint as a retry", () => {
    const other = entry({ at: 100, path: "/core/sessions/abc/", status: 200 });
    expect(judge([refused(0), other])["api.backoff"]).toBeUndefined();
  });
});
