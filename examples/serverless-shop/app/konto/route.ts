import { auth } from "@sls/lib/auth";
import { guests } from "@sls/lib/guest";
import { carryGuest } from "@sls/lib/service/sign-in";
import { service } from "@sls/lib/service/wiring";
import { shopBaseUrl } from "@sls/lib/shop";
import { z } from "zod";

// Sign-up, sign-in and sign-out, posted by plain forms, around Better Auth's server API: Better
// Auth checks the password and keeps its session (its cookie passed on), and this handler rotates
// the guest identity at sign-in and at sign-out (the kit's createGuestIdentity; contract,
// Authentication 6-7): a copy of the guest cookie from before opens nothing of the signed-in
// shopper's; a guest's cart and seen trade-in move to the new session; a sign-in over another customer's session
// carries nothing of theirs; the next person at this browser is another session. The answer is a
// redirect, so the next page is a full page load and the service's SDK reads the new shopper (it
// reads shopper data once per load).
const credentials = z.object({
  email: z.email().max(200),
  password: z.string().min(1).max(200),
  name: z.string().trim().max(200).optional(),
});

export async function POST(request: Request): Promise<Response> {
  if (request.headers.get("origin") !== new URL(shopBaseUrl()).origin) {
    return new Response("Formular einer fremden Seite abgelehnt.", { status: 403 });
  }
  const form = await request.formData();
  const action = form.get("action");
  const redirectTo = (path: string, cookies: string[]) => {
    const headers = new Headers({ location: new URL(path, shopBaseUrl()).toString() });
    for (const cookie of cookies) headers.append("set-cookie", cookie);
    return new Response(null, { status: 303, headers });
  };
  if (action === "abmelden") {
    const answer = await auth().api.signOut({ headers: request.headers, asResponse: true });
    return redirectTo("/", [...answer.headers.getSetCookie(), guests().replace().cookie.header]);
  }
  const input = credentials.safeParse({
    email: form.get("email"),
    password: form.get("password"),
    name: form.get("name") ?? undefined,
  });
  if (!input.success) return redirectTo("/anmelden?fehler=1", []);
  const { email, password, name } = input.data;
  const answer =
    action === "registrieren"
      ? await auth().api.signUpEmail({
          body: { email, password, name: name || email },
          headers: request.headers,
          asResponse: true,
        })
      : await auth().api.signInEmail({
          body: { email, password },
          headers: request.headers,
          asResponse: true,
        });
  if (!answer.ok) return redirectTo("/anmelden?fehler=1", []);
  const signedIn = signedInAnswer.safeParse(await answer.clone().json());
  if (!signedIn.success) return redirectTo("/anmelden?fehler=1", []);
  // Signed in: a new guest identity issued to this customer; the guest's own cart and seen
  // trade-in come along.
  const { session, cookie, carried } = guests().signIn(request, signedIn.data.user.id);
  await carryGuest(carried, session, signedIn.data.user.id, { tradeIns: service().tradeIns.store });
  return redirectTo("/", [...answer.headers.getSetCookie(), cookie.header]);
}

/** What Better Auth answers a sign-in or sign-up with: the user it signed in. */
const signedInAnswer = z.object({ user: z.object({ id: z.string().min(1).max(200) }) });
