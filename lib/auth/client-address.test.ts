import { describe, expect, it } from "vitest";
import { addressGroup, clientAddressFrom } from "./client-address";

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

describe("addressGroup", () => {
  it("an IPv6 address is its /64, however it is written; IPv4 as it is", () => {
    expect(addressGroup("2001:db8:aa:bb:1:2:3:4")).toBe("2001:0db8:00aa:00bb::/64");
    expect(addressGroup("2001:DB8:AA:BB::9")).toBe("2001:0db8:00aa:00bb::/64");
    expect(addressGroup("[2001:db8:aa:bb::9]")).toBe("2001:0db8:00aa:00bb::/64");
    expect(addressGroup("2001:db8::1")).toBe("2001:0db8:0000:0000::/64");
    expect(addressGroup("::1")).toBe("0000:0000:0000:0000::/64");
    expect(addressGroup("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressGroup("192.0.2.1")).toBe("192.0.2.1");
    expect(addressGroup("unknown")).toBe("unknown");
  });
});
