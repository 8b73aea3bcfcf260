import { timingSafeEqual } from "node:crypto";
import { db, hashPassword } from "@mini/lib/db";
import { customers } from "@mini/lib/schema";
import {
  cookieOptions,
  newSession,
  SESSION_COOKIE,
  seal,
  sessionOfRequest,
} from "@mini/lib/session";
import { shopBaseUrl } from "@mini/lib/shop";
import { eq } from "drizzle-orm";

// Sign-in and sign-out, posted by plain forms: the answer is a redirect, so the next page is a
// full page load and the service's SDK reads the new shopper (it reads shopper data once per load).
export async function POST(request: Request): Promise<Response> {
  if (request.headers.get("origin") !== new URL(shopBaseUrl()).origin) {
    return new Response("Cross-site form refused.", { status: 403 });
  }
  const form = await request.formData();
  const session = sessionOfRequest(request) ?? newSession();
  const secure = cookieOptions.secure ? "; Secure" : "";
  const to = (path: string, next = session) =>
    new Response(null, {
      status: 303,
      headers: {
        location: new URL(path, shopBaseUrl()).toString(),
        "set-cookie": `${SESSION_COOKIE}=${seal(next)}; Path=/; Max-Age=${cookieOptions.maxAge}; HttpOnly; SameSite=Lax${secure}`,
      },
    });
  // Sign-out replaces the identity: the next shopper at this browser is another session.
  if (form.get("action") === "signout") return to("/", newSession());
  const email = String(form.get("email") ?? "").slice(0, 200);
  const [row] = await db().select().from(customers).where(eq(customers.email, email));
  const stored = Buffer.from(row?.passwordHash ?? "");
  const given = Buffer.from(
    hashPassword(String(form.get("password") ?? ""), row?.passwordHash.split(":")[0]),
  );
  if (!row || given.length !== stored.length || !timingSafeEqual(given, stored))
    return to("/login?failed=1");
  // Sign-in keeps the guest identity, and so the trade-in valued before it.
  return to("/", { ...session, customerId: row.id });
}
