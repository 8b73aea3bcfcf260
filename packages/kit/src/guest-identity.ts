import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { SessionIdentity, ShopperIdentity } from "./shop-ports.js";
import { createSealer } from "./token-sealing.js";

/**
 * The shopper's identity as the service needs it, for a shop whose sign-in belongs to an auth
 * library (contract: Resources › Session hash; Authentication 6–7). The session hash is made of
 * a session id and a salt that must SURVIVE SIGN-IN (the trade-in valued as a guest is keyed by
 * it) and be REPLACED AT SIGN-OUT (or the next person at that browser gets the previous
 * shopper's trade-in, cart and checkout: shop-ports.ts, SessionIdentity). Auth libraries have
 * neither an anonymous session nor a salt, so the kit keeps both in a cookie of its own:
 * - sealed (AES-256-GCM, a key derived from the host's secret for this purpose alone, the
 *   cookie's name bound in), httpOnly, SameSite=Lax: the raw id and salt never reach the browser
 *   in a readable form (Authentication 6);
 * - nothing on the server: every instance reads it the same way, and it costs no table;
 * - the signed-in customer is the auth library's, asked per request (`customerOf`), never stored
 *   in this cookie, so signing out in the library is enough to make the shopper a guest.
 * Sign-in re-seals the same identity (a new cookie value, the same id and salt); sign-out and
 * wherever the host ends a session call `replace`.
 */

export interface GuestIdentityOptions {
  /** At least 32 characters, from the environment (never in code). */
  secret: string;
  /** Default `service_guest`. */
  cookieName?: string | undefined;
  /** Default true; false only for plain-HTTP local development. */
  secure?: boolean | undefined;
  /** Default 30 days. */
  maxAgeSeconds?: number | undefined;
  /** The signed-in customer of this request by the auth library (null: a guest). */
  customerOf?: ((request: Request) => Promise<string | null>) | undefined;
}

/** The guest part of a ShopperIdentity: what the cookie holds. */
export interface GuestSession {
  sessionId: string;
  salt: string;
}

/** A cookie to set, in the shape of Next.js's `cookies().set(name, value, options)` and as a
 *  `Set-Cookie` header value for a plain Response. */
export interface GuestCookie {
  name: string;
  value: string;
  options: {
    httpOnly: true;
    sameSite: "lax";
    secure: boolean;
    path: "/";
    maxAge: number;
  };
  header: string;
}

export interface GuestIdentity {
  /** The kit's SessionIdentity port: the request's own guest cookie, and `customerOf`'s
   *  customer. Read-only: a request without a valid cookie is anonymous (null). */
  sessionIdentity: SessionIdentity;
  /** The identity a Cookie header (or a request's) carries, or null. */
  read(from: Request | string | null | undefined): GuestSession | null;
  /**
   * For the host's proxy (middleware) on every page request: the request's identity, and the
   * cookie to set when it had none (or one that no longer opens): a shopper has an identity from
   * the first page, before the SDK asks for it.
   */
  ensure(from: Request | string | null | undefined): {
    session: GuestSession;
    cookie: GuestCookie | null;
  };
  /** At sign-in: the same identity sealed anew (a new cookie value, the same id and salt). */
  keep(session: GuestSession): GuestCookie;
  /** At sign-out and wherever the host ends a session: a new identity and its cookie. */
  replace(): { session: GuestSession; cookie: GuestCookie };
}

const DEFAULT_COOKIE = "service_guest";
const DEFAULT_MAX_AGE = 60 * 60 * 24 * 30;
/** What the sealed value may be at most: a cookie is capped near 4 KB; ours is ~200 bytes. */
const MAX_COOKIE_VALUE = 1024;
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const sessionSchema = z.strictObject({ sessionId: hex64, salt: hex64 });

export function createGuestIdentity(options: GuestIdentityOptions): GuestIdentity {
  const name = options.cookieName ?? DEFAULT_COOKIE;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw new Error(`not a cookie name: ${name}`);
  const sealer = createSealer(options.secret, {
    purpose: "service-guest-identity/v1",
    setting: "the guest identity's secret",
  });
  const cookieOptions = {
    httpOnly: true,
    sameSite: "lax",
    secure: options.secure ?? true,
    path: "/",
    maxAge: options.maxAgeSeconds ?? DEFAULT_MAX_AGE,
  } as const;

  const cookieOf = (session: GuestSession): GuestCookie => {
    const value = sealer.seal(name, JSON.stringify(session));
    const header = [
      `${name}=${value}`,
      "Path=/",
      `Max-Age=${cookieOptions.maxAge}`,
      "HttpOnly",
      "SameSite=Lax",
      ...(cookieOptions.secure ? ["Secure"] : []),
    ].join("; ");
    return { name, value, options: cookieOptions, header };
  };

  const read = (from: Request | string | null | undefined): GuestSession | null => {
    const header = typeof from === "string" || from == null ? from : from.headers.get("cookie");
    const value = cookieValue(header ?? "", name);
    if (!value || value.length > MAX_COOKIE_VALUE) return null;
    const opened = sealer.open(name, value);
    if (opened === null) return null;
    try {
      const parsed = sessionSchema.safeParse(JSON.parse(opened));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  };

  const fresh = (): GuestSession => ({
    sessionId: randomBytes(32).toString("hex"),
    salt: randomBytes(32).toString("hex"),
  });

  return {
    sessionIdentity: {
      async ofRequest(request) {
        const session = read(request);
        if (!session) return null;
        const customerId = (await options.customerOf?.(request)) ?? undefined;
        const identity: ShopperIdentity = { ...session, customerId };
        return identity;
      },
    },
    read,
    ensure(from) {
      const session = read(from);
      if (session) return { session, cookie: null };
      const created = fresh();
      return { session: created, cookie: cookieOf(created) };
    },
    keep: (session) => cookieOf(sessionSchema.parse(session)),
    replace() {
      const session = fresh();
      return { session, cookie: cookieOf(session) };
    },
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
