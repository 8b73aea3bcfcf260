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
    // On HTTPS the __Host- prefix: the browser takes it only Secure, on Path=/, without Domain,
    // so no sibling subdomain can plant or overwrite it.
    expect(cookie.header).toBe(
      `__Host-service_guest=${cookie.value}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(cookie.options).toEqual({
      httpOnly: true,
      sameSite: "lax",
      secure: true,
      path: "/",
      maxAge: 2_592_000,
    });
  });

  it("rotates at sign-in and at sign-out: a copy taken or planted before opens only the session left behind", async () => {
    const withAuth = createGuestIdentity({ secret: SECRET, customerOf: async () => "cust_1" });
    const { session: guest, cookie } = withAuth.replace();
    const signedIn = withAuth.signIn(requestWith(cookie), "cust_1");
    expect(signedIn.session.sessionId).not.toBe(guest.sessionId);
    expect(signedIn.session.salt).not.toBe(guest.salt);
    // The guest's own session is handed over for the host to move its cart to the new id.
    expect(signedIn.carried).toEqual(guest);
    expect(withAuth.read(requestWith(signedIn.cookie))).toEqual(signedIn.session);
    // The copy from before still names the old session only, which the host emptied.
    expect(withAuth.read(requestWith(cookie))).toEqual(guest);
    const next = withAuth.replace();
    expect(next.session.sessionId).not.toBe(signedIn.session.sessionId);
    expect(next.session.salt).not.toBe(signedIn.session.salt);
    expect(withAuth.read(requestWith(next.cookie))).toEqual(next.session);
  });

  it("a sign-in over another customer's session carries nothing of it; the same customer's is carried", () => {
    const a = guests.signIn(null, "cust_a");
    expect(a.carried).toBeNull();
    const b = guests.signIn(requestWith(a.cookie), "cust_b");
    expect(b.carried).toBeNull();
    expect(b.session.sessionId).not.toBe(a.session.sessionId);
    const again = guests.signIn(requestWith(b.cookie), "cust_b");
    expect(again.carried).toEqual(b.session);
  });

  it("a cookie issued at one customer's sign-in is anonymous for a request signed in as another", async () => {
    let customer = "cust_a";
    const withAuth = createGuestIdentity({ secret: SECRET, customerOf: async () => customer });
    const { session, cookie } = withAuth.signIn(null, "cust_a");
    expect(await withAuth.sessionIdentity.ofRequest(requestWith(cookie))).toEqual({
      ...session,
      customerId: "cust_a",
    });
    customer = "cust_b";
    expect(await withAuth.sessionIdentity.ofRequest(requestWith(cookie))).toBeNull();
  });

  it("the issue time is sealed in and the age checked on read, whatever the browser keeps", () => {
    let clock = Date.parse("2027-03-01T10:00:00Z");
    const timed = createGuestIdentity({ secret: SECRET, maxAgeSeconds: 3600, now: () => clock });
    const { session, cookie } = timed.replace();
    clock += 3600 * 1000;
    expect(timed.read(requestWith(cookie))).toEqual(session);
    clock += 1000;
    expect(timed.read(requestWith(cookie))).toBeNull();
    expect(timed.ensure(requestWith(cookie)).cookie).not.toBeNull();
    // Dated ahead of the clock by more than the skew allowed: refused too.
    const ahead = createGuestIdentity({ secret: SECRET, now: () => clock + 3_600_000 });
    expect(timed.read(requestWith(ahead.replace().cookie))).toBeNull();
  });

  it("revoked: every cookie by a new secret, those issued before a moment, one session by the host's list", async () => {
    let clock = Date.parse("2027-03-01T10:00:00Z");
    const before = createGuestIdentity({ secret: SECRET, now: () => clock }).replace();
    clock += 60_000;
    const incident = new Date(clock);
    const after = createGuestIdentity({ secret: SECRET, now: () => clock }).replace();
    const revokedIds = new Set([after.session.sessionId]);
    const guarded = createGuestIdentity({
      secret: SECRET,
      issuedAfter: incident,
      revoked: (session) => revokedIds.has(session.sessionId),
      now: () => clock,
    });
    expect(guarded.read(requestWith(before.cookie))).toBeNull();
    expect(guarded.read(requestWith(after.cookie))).toEqual(after.session);
    expect(await guarded.sessionIdentity.ofRequest(requestWith(after.cookie))).toBeNull();
    const rotated = createGuestIdentity({ secret: `${SECRET}-rotated` });
    expect(rotated.read(requestWith(after.cookie))).toBeNull();
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
      "__Host-service_guest=",
      `__Host-service_guest=${tampered}`,
      `__Host-service_guest=${otherSecret.value}`,
      // Sealed under another cookie's name: the name is bound in, so it does not open here.
      `__Host-service_guest=${otherName.value}`,
      `__Host-service_guest=${"x".repeat(5000)}`,
      "__Host-service_guest=%E0%A4%A",
      // Without the prefix (as a subdomain could set it): not this cookie.
      `service_guest=${cookie.value}`,
    ]) {
      expect(await guests.sessionIdentity.ofRequest(requestWith(header)), header).toBeNull();
      const ensured = guests.ensure(header);
      expect(ensured.cookie, header).not.toBeNull();
    }
  });

  it("reads its own cookie among others, percent-encoded or not", () => {
    const { session, cookie } = guests.replace();
    const header = `theme=dark; __Host-service_guest=${encodeURIComponent(cookie.value)}; other=1`;
    expect(guests.read(header)).toEqual(session);
  });

  it("refuses a short secret, a bad cookie name, and a sign-in without a customer", () => {
    expect(() => createGuestIdentity({ secret: "short" })).toThrow(/at least 32 characters/);
    expect(() => createGuestIdentity({ secret: SECRET, cookieName: "a b" })).toThrow(
      /not a cookie name/,
    );
    expect(() => guests.signIn(null, "")).toThrow();
  });

  it("plain HTTP for local development: no Secure attribute when asked", () => {
    const local = createGuestIdentity({ secret: SECRET, secure: false, maxAgeSeconds: 60 });
    expect(local.replace().cookie.header).toMatch(
      /^service_guest=[^;]+; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/,
    );
  });
});
