import { describe, expect, it } from "vitest";
import { clientAddressFrom } from "./client-address";

// Which X-Forwarded-For entry is the client's: the one the nearest trusted proxy wrote
// (TRUSTED_PROXY_HOPS from the right), never one further left that the client wrote itself.

describe("clientAddressFrom", () => {
  it("no proxy (0): the one entry `next start` writes from the socket", () => {
    expect(clientAddressFrom("127.0.0.1", 0)).toBe("127.0.0.1");
    expect(clientAddressFrom(null, 0)).toBe("unknown");
    expect(clientAddressFrom(" , ", 0)).toBe("unknown");
  });

  it("behind nginx (1): the entry nginx appended, not the ones the client wrote", () => {
    expect(clientAddressFrom("1.1.1.1, 2.2.2.2, 198.51.100.20", 1)).toBe("198.51.100.20");
    expect(clientAddressFrom("198.51.100.20", 1)).toBe("198.51.100.20");
  });

  it("behind a CDN and nginx (2): the entry the CDN appended, not the CDN's own address", () => {
    expect(clientAddressFrom("1.1.1.1, 198.51.100.21, 192.0.2.1", 2)).toBe("198.51.100.21");
    // The client's own entries never count, however many it writes.
    expect(clientAddressFrom("a, b, c, d, 198.51.100.21, 192.0.2.1", 2)).toBe("198.51.100.21");
  });

  it("a request that skipped a proxy: the furthest entry any trusted party wrote", () => {
    expect(clientAddressFrom("192.0.2.1", 2)).toBe("192.0.2.1");
  });

  it("an entry is at most 64 characters", () => {
    expect(clientAddressFrom("x".repeat(500), 1)).toHaveLength(64);
  });
});
