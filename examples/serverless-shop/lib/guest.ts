import { createGuestIdentity, type GuestIdentity } from "@service-integration/kit/server";

// The shopper's guest identity (session id + salt, the session hash is made of them) in the
// kit's sealed cookie, beside Better Auth's own session cookie: made on the first page
// (proxy.ts), kept at sign-in, replaced at sign-out (app/konto/route.ts). No import of the auth
// library here: the proxy needs only the cookie; the kit's SessionIdentity asks Better Auth for
// the customer (lib/service/wiring.ts).
export function guestIdentity(customerOf?: (request: Request) => Promise<string | null>) {
  const secret = process.env.GUEST_IDENTITY_SECRET;
  if (!secret) throw new Error("GUEST_IDENTITY_SECRET (32+ characters) is required");
  return createGuestIdentity({
    secret,
    // Plain HTTP on localhost only (the tests); Secure everywhere else.
    secure: process.env.SHOP_INSECURE_COOKIES !== "1",
    customerOf,
  });
}

let cookiesOnly: GuestIdentity | undefined;
/** The guest cookie alone (proxy, sign-in and sign-out). */
export const guests = (): GuestIdentity => {
  cookiesOnly ??= guestIdentity();
  return cookiesOnly;
};
