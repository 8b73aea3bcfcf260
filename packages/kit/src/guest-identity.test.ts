import { describe, expect, it } from "vitest";
import { createGuestIdentity, type GuestCookie } from "./guest-identity.js";

const SECRET = "a-guest-identity-secret-of-32-chars!";
const guests = createGuestIdentity({ secret: SECRET });
const requestWith = (cookie: GuestCookie | string) =>
  new Request("https://shop.test/checkout", {
    headers: { cookie: typeof cookie === "string" ? cookie : `${cookie.name}=${cookie.value}` },
  });

describe("createGuestIdentity", () => {
  it("gives a first visit an identity and its cookie, then reads the same identity back", async () => {
    const first = guests.ensure(new Request("https://shop.test/"));
    expect(first.cookie, "a cookie for a request without one").not.toBeNull();
    expect(first.session.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(first.session.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(first.session.salt).not.toBe(first.session.sessionId);
    const cookie = first.cookie as GuestCookie;
    const again = guests.ensure(requestWith(cookie));
    expect(again).toEqual({ session: first.session, cookie: null });
    expect(await guests.sessionIdentity.ofRequest(requestWith(cookie))).toEqual({
      ...first.session,
      customerId: undefined,
    });
  });

  it("seals the id and salt: the cookie shows neither, and is httpOnly, SameSite=Lax, Secure", () => {
    const { session, cookie } = guests.replace();
    expect(cookie.value).not.toContain(session.sessionId);
    expect(cookie.value).not.toContain(session.salt);
    expect(Buffer.from(cookie.value, "utf8").toString()).not.toMatch(/[0-9a-f]{64}/);
    expect(cookie.header).toBe(
      `service_guest=${cookie.value}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(cookie.options).toEqual({
      httpOnly: true,
      sameSite: "lax",
      secure: true,
      path: "/",
      maxAge: 2_592_000,
    });
  });

  it("keeps the identity at sign-in (a new cookie value, the same id and salt) and replaces it at sign-out", () => {
    const { session, cookie } = guests.replace();
    const kept = guests.keep(session);
    expect(kept.value, "re-sealed").not.toBe(cookie.value);
    expect(guests.read(requestWith(kept))).toEqual(session);
    const next = guests.replace();
    expect(next.session.sessionId).not.toBe(session.sessionId);
    expect(next.session.salt).not.toBe(session.salt);
    expect(guests.read(requestWith(next.cookie))).toEqual(next.session);
  });

  it("the customer is the auth library's, asked per request: signed out there, a guest here", async () => {
    let signedIn: string | null = "cust_1";
    const withAuth = createGuestIdentity({ secret: SECRET, customerOf: async () => signedIn });
    const { session, cookie } = withAuth.replace();
    expect(await withAuth.sessionIdentity.ofRequest(requestWith(cookie))).toEqual({
      ...session,
      customerId: "cust_1",
    });
    signedIn = null;
    expect(await withAuth.sessionIdentity.ofRequest(requestWith(cookie))).toEqual({
      ...session,
      customerId: undefined,
    });
  });

  it("a request without a valid cookie is anonymous, and ensure gives it a new identity", async () => {
    const { cookie } = guests.replace();
    const tampered = `${cookie.value.slice(0, -2)}${cookie.value.endsWith("AA") ? "BB" : "AA"}`;
    const otherSecret = createGuestIdentity({ secret: `${SECRET}-other` }).replace().cookie;
    const otherName = createGuestIdentity({ secret: SECRET, cookieName: "other" }).replace().cookie;
    for (const header of [
      "",
      "service_guest=",
      `service_guest=${tampered}`,
      `service_guest=${otherSecret.value}`,
      // Sealed under another cookie's name: the name is bound in, so it does not open here.
      `service_guest=${otherName.value}`,
      `service_guest=${"x".repeat(5000)}`,
      "service_guest=%E0%A4%A",
    ]) {
      expect(await guests.sessionIdentity.ofRequest(requestWith(header)), header).toBeNull();
      const ensured = guests.ensure(header);
      expect(ensured.cookie, header).not.toBeNull();
    }
  });

  it("reads its own cookie among others, percent-encoded or not", () => {
    const { session, cookie } = guests.replace();
    const header = `theme=dark; service_guest=${encodeURIComponent(cookie.value)}; other=1`;
    expect(guests.read(header)).toEqual(session);
  });

  it("refuses a short secret, a bad cookie name, and keeping what is not an identity", () => {
    expect(() => createGuestIdentity({ secret: "short" })).toThrow(/at least 32 characters/);
    expect(() => createGuestIdentity({ secret: SECRET, cookieName: "a b" })).toThrow(
      /not a cookie name/,
    );
    expect(() => guests.keep({ sessionId: "1", salt: "2" })).toThrow();
  });

  it("plain HTTP for local development: no Secure attribute when asked", () => {
    const local = createGuestIdentity({ secret: SECRET, secure: false, maxAgeSeconds: 60 });
    expect(local.replace().cookie.header).toMatch(/; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/);
  });
});
