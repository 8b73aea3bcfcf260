import { getShopSession } from "@/lib/session/session";
import { shopperSummary } from "@/lib/shop/shopper-summary";

// GET /api/shopper-summary: the header's per-shopper part (cart count, logged in or not) for a
// stored catalog page, which is the same for everyone (docs/decisions/catalog-rendering.md).
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const summary = await shopperSummary(await getShopSession());
  return Response.json(summary, { headers: { "cache-control": "private, no-store" } });
}
