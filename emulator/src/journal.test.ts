import { describe, expect, it } from "vitest";
import { Journal, redactBody, redactHeaders } from "./journal";

describe("journal redaction", () => {
  it("hides secrets in JSON, form bodies and headers", () => {
    expect(redactBody('{"access_token":"a","nested":{"client_secret":"s","ok":1}}')).toEqual({
      access_token: "***",
      nested: { client_secret: "***", ok: 1 },
    });
    expect(redactBody("grant_type=refresh_token&refresh_token=abc")).toEqual({
      grant_type: "refresh_token",
      refresh_token: "***",
    });
    expect(redactHeaders({ Authorization: "Bearer abc", "content-type": "x" })).toEqual({
      authorization: "Bearer ***",
      "content-type": "x",
    });
    expect(redactBody("plain text")).toBe("plain text");
    expect(redactBody("")).toBeUndefined();
  });
});

describe("Journal ring buffer", () => {
  const entry = (path: string) => ({
    kind: "request" as const,
    at: 0,
    method: "GET",
    path,
    status: 200,
    duration_ms: 1,
  });

  it("keeps only the newest `capacity` entries, oldest first, and reads after a sequence", () => {
    const journal = new Journal(3);
    for (const p of ["/1", "/2", "/3", "/4", "/5"]) journal.record(entry(p));
    expect(journal.read().map((e) => e.path)).toEqual(["/3", "/4", "/5"]);
    expect(journal.read({ after: 4 }).map((e) => e.path)).toEqual(["/5"]);
    expect(journal.read({ limit: 1 }).map((e) => e.path)).toEqual(["/5"]);
    expect(journal.lastSeq).toBe(5);
    journal.clear();
    expect(journal.read()).toEqual([]);
  });
});
