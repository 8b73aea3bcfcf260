import { logOutShopper } from "@/lib/shop/actions/account-actions";

/**
 * POST /account/logout, from the account page's plain form: the answer is a 303 to the home
 * page, so the browser loads it in full and the service's SDK starts again for an anonymous
 * shopper (it reads shopper data once per page load; contract, Front-end SDK). A server action
 * could not do that: changing the session cookie re-renders the page it was called from.
 * The session cookie is SameSite=Lax, so another site's form cannot log the shopper out; a
 * foreign Origin is refused anyway.
 */
export async function POST(request: Request): Promise<Response> {
  const origin = request.headers.get("origin");
  if (origin && new URL(origin).host !== request.headers.get("host")) {
    return new Response("Cross-site logout refused.", { status: 403 });
  }
  await logOutShopper();
  return new Response(null, { status: 303, headers: { location: "/" } });
}
