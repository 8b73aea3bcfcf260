import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { SessionIdentity, ShopperIdentity } from "./shop-ports.js";
import { createSealer } from "./token-sealing.js";

/**
 * The shopper's identity as the service needs it, for a shop whose sign-in belongs to an auth
 * library (contract: Resources › Session hash; Authentication 6–7). The session hash is made of
 * a session id and a salt; the shop keys its cart, kept checkout and seen trade-in by the id.
 * Auth libraries have neither an anonymous session nor a salt, so the kit keeps both in a cookie
 * of its own:
 * - sealed (AES-256-GCM, a key derived from the host's secret for this purpose alone, the
 *   cookie's name bound in), httpOnly, SameSite=Lax, and on HTTPS named `__Host-…` (Secure,
 *   Path=/, no Domain: no sibling subdomain can plant or overwrite it): the raw id and salt never
 *   reach the browser in a readable form (Authentication 6);
 * - its issue time sealed in and its age checked on every read (`maxAgeSeconds`), so a copy stops
 *   opening anything when it is that old, whatever the browser does with Max-Age;
 * - rotated at sign-in and at sign-out (a new id and salt each time): a copy taken or planted
 *   before either opens only the session left behind. At sign-in `signIn` hands the host the
 *   guest session it replaced (`carried`) to move the guest's cart to the new id, unless that
 *   session was signed in as another customer (then nothing of it is carried);
 * - revocable (README, "Revoking guest cookies"): all at once by a new secret, those issued before
 *   a moment by `issuedAfter`, one session by `revoked`;
 * - the signed-in customer is the auth library's, asked per request (`customerOf`); the cookie
 *   holds who it was issued to at sign-in, and a request whose customer is someone else is
 *   anonymous here.
 */

export interface GuestIdentityOptions {
  /** At least 32 characters, from the environment (never in code). */
  secret: string;
  /** Default `service_guest` (sent as `__Host-service_guest` when Secure). */
  cookieName?: string | undefined;
  /** Default true; false only for plain-HTTP local development. */
  secure?: boolean | undefined;
  /** Default 30 days: the cookie's Max-Age and the oldest seal read. */
  maxAgeSeconds?: number | undefined;
  /** The signed-in customer of this request by the auth library (null: a guest). */
  customerOf?: ((request: Request) => Promise<string | null>) | undefined;
  /** Cookies issued before this moment do not open (after an incident: every guest starts anew). */
  issuedAfter?: Date | undefined;
  /** A host's own revocation list, asked by `sessionIdentity` per request: true ends it. */
  revoked?: ((session: GuestSession) => boolean | Promise<boolean>) | undefined;
  /** The clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The guest part of a ShopperIdentity: what the cookie holds. */
export interface GuestSession {
  /** The raw session id: 64 hex characters, never sent to the service. */
  sessionId: string;
  /** The session hash's salt: 64 hex characters. */
  salt: string;
}

/** A cookie to set, in the shape of Next.js's `cookies().set(name, value, options)` and as a
 *  `Set-Cookie` header value for a plain Response. */
export interface GuestCookie {
  /** The cookie's name (`__Host-` prefixed when Secure). */
  name: string;
  /** The sealed identity. */
  value: string;
  /** Its attributes. */
  options: {
    /** Never readable by the page's scripts. */
    httpOnly: true;
    /** Sent on top-level navigations from other sites, not on their sub-requests. */
    sameSite: "lax";
    /** HTTPS only (false only for plain-HTTP local development). */
    secure: boolean;
    /** The whole site. */
    path: "/";
    /** Its lifetime in seconds (maxAgeSeconds). */
    maxAge: number;
  };
  /** The same cookie as a `Set-Cookie` header value. */
  header: string;
}

/** The kit's guest cookie identity (createGuestIdentity): the SessionIdentity port and what the
 *  host's proxy, sign-in and sign-out call. */
export interface GuestIdentity {
  /** The kit's SessionIdentity port: the request's own guest cookie, and `customerOf`'s
   *  customer. Read-only: a request without a valid cookie is anonymous (null). */
  sessionIdentity: SessionIdentity;
  /** The cookie's name as sent (`__Host-` prefixed when Secure). */
  cookieName: string;
  /** The identity a Cookie header (or a request's) carries, or null (none, tampered, too old). */
  read(from: Request | string | null | undefined): GuestSession | null;
  /**
   * For the host's proxy (middleware) on every page request: the request's identity, and the
   * cookie to set when it had none (or one that no longer opens): a shopper has an identity from
   * the first page, before the SDK asks for it.
   */
  ensure(from: Request | string | null | undefined): {
    /** The request's identity, or the new one. */
    session: GuestSession;
    /** The cookie to set, or null when the request's still opens. */
    cookie: GuestCookie | null;
  };
  /**
   * After the auth library signed `customerId` in: a new identity and its cookie, issued to that
   * customer. `carried` is the session it replaces when that was a guest's or this customer's
   * own: the host moves the cart it keys by `carried.sessionId` to `session.sessionId` (a guest
   * signing in keeps their cart). Null when there was none, or it was signed in as another
   * customer: nothing of theirs reaches who signs in now.
   */
  signIn(
    from: Request | string | null | undefined,
    customerId: string,
  ): {
    /** The new identity, issued to the customer. */
    session: GuestSession;
    /** Its cookie, to set. */
    cookie: GuestCookie;
    /** The session it replaces whose cart the host moves over, or null. */
    carried: GuestSession | null;
  };
  /** At sign-out and wherever the host ends a session: a new identity and its cookie. */
  replace(): {
    /** The new identity. */
    session: GuestSession;
    /** Its cookie, to set. */
    cookie: GuestCookie;
  };
}

const DEFAULT_COOKIE = "service_guest";
const DEFAULT_MAX_AGE = 60 * 60 * 24 * 30;
/** A seal dated this far ahead of the clock still opens (clocks of instances differ a little). */
const CLOCK_SKEW_SECONDS = 60;
/** What the sealed value may be at most: a cookie is capped near 4 KB; ours is ~300 bytes. */
const MAX_COOKIE_VALUE = 1024;
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const sealedSchema = z.strictObject({
  sessionId: hex64,
  salt: hex64,
  /** Seconds since the epoch. */
  issuedAt: z.number().int().nonnegative(),
  /** Whom it was issued to at sign-in; absent for a guest. */
  customerId: z.string().min(1).max(200).optional(),
});
type Sealed = z.infer<typeof sealedSchema>;

/** The guest cookie identity of `options` (above: sealed, rotated at sign-in and sign-out,
 *  revocable). */
export function createGuestIdentity(options: GuestIdentityOptions): GuestIdentity {
  const base = options.cookieName ?? DEFAULT_COOKIE;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(base)) throw new Error(`not a cookie name: ${base}`);
  const secure = options.secure ?? true;
  // __Host-: the browser takes it only with Secure, Path=/ and no Domain (RFC 6265bis 4.1.3.2).
  const name = secure ? `__Host-${base}` : base;
  const sealer = createSealer(options.secret, {
    purpose: "service-guest-identity/v2",
    setting: "the guest identity's secret",
  });
  const maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE;
  const now = () => Math.floor((options.now ?? Date.now)() / 1000);
  const cookieOptions = { httpOnly: true, sameSite: "lax", secure, path: "/", maxAge } as const;

  const cookieOf = (sealed: Sealed): GuestCookie => {
    const value = sealer.seal(name, JSON.stringify(sealed));
    const header = [
      `${name}=${value}`,
      "Path=/",
      `Max-Age=${maxAge}`,
      "HttpOnly",
      "SameSite=Lax",
      ...(secure ? ["Secure"] : []),
    ].join("; ");
    return { name, value, options: cookieOptions, header };
  };

  const open = (from: Request | string | null | undefined): Sealed | null => {
    const header = typeof from === "string" || from == null ? from : from.headers.get("cookie");
    const value = cookieValue(header ?? "", name);
    if (!value || value.length > MAX_COOKIE_VALUE) return null;
    const opened = sealer.open(name, value);
    if (opened === null) return null;
    let parsed: ReturnType<typeof sealedSchema.safeParse>;
    try {
      parsed = sealedSchema.safeParse(JSON.parse(opened));
    } catch {
      return null;
    }
    if (!parsed.success) return null;
    const at = parsed.data.issuedAt;
    const time = now();
    if (at > time + CLOCK_SKEW_SECONDS || time - at > maxAge) return null;
    if (options.issuedAfter && at * 1000 < options.issuedAfter.getTime()) return null;
    return parsed.data;
  };
  const guestOf = ({ sessionId, salt }: Sealed): GuestSession => ({ sessionId, salt });
  const read = (from: Request | string | null | undefined) => {
    const sealed = open(from);
    return sealed ? guestOf(sealed) : null;
  };

  const fresh = (customerId?: string): Sealed => ({
    sessionId: randomBytes(32).toString("hex"),
    salt: randomBytes(32).toString("hex"),
    issuedAt: now(),
    ...(customerId ? { customerId } : {}),
  });
  const issue = (customerId?: string) => {
    const sealed = fresh(customerId);
    return { session: guestOf(sealed), cookie: cookieOf(sealed) };
  };

  return {
    sessionIdentity: {
      async ofRequest(request) {
        const sealed = open(request);
        if (!sealed) return null;
        const session = guestOf(sealed);
        if (await options.revoked?.(session)) return null;
        const customerId = (await options.customerOf?.(request)) ?? undefined;
        // Issued at another customer's sign-in: not this request's session.
        if (sealed.customerId && customerId && sealed.customerId !== customerId) return null;
        const identity: ShopperIdentity = { ...session, customerId };
        return identity;
      },
    },
    cookieName: name,
    read,
    ensure(from) {
      const session = read(from);
      if (session) return { session, cookie: null };
      return issue();
    },
    signIn(from, customerId) {
      z.string().min(1).max(200).parse(customerId);
      const before = open(from);
      const carried =
        before && (before.customerId === undefined || before.customerId === customerId)
          ? guestOf(before)
          : null;
      return { ...issue(customerId), carried };
    },
    replace: () => issue(),
  };
}
/** The value of cookie `name` in a Cookie header (the first, as browsers send the most specific
 *  path first), percent-decoding tolerated. */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const raw = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}
