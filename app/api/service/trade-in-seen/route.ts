import { wellFormedString } from "@service-integration/kit";
import { errorJson, internalError, json } from "@service-integration/kit/server";
import { z } from "zod";
import { readSessionJson } from "@/lib/service-adapter/route-input";
import { serviceAdapter } from "@/lib/service-adapter/service";
import { dropSeenTradeInsPastCap } from "@/lib/shop/cart";

// POST /api/service/trade-in-seen { tradein_id }: the page tells the shop which trade-in the SDK
// showed as accepted (event service-valuation-updated, or the checkout's payment option details),
// so a card payment can explain an expired valuation the service no longer lists (docs/decisions/card-trade-in-registration.md).
// Only an id is kept; the purchase decision is still the service's answer about that id.
export const dynamic = "force-dynamic";

const bodySchema = z.object({ tradein_id: wellFormedString().min(1).max(100) });

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await readSessionJson(request, bodySchema, {
      noSession: "No shop session.",
      invalid: () => errorJson(400, "bad_request", "tradein_id must be a string."),
    });
    if (!input.ok) return input.response;
    await serviceAdapter().noteTradeInSeen(input.session.sessionId, input.data.tradein_id);
    // Every cookieless request is a new session (proxy.ts): the rows are kept to a cap, the
    // oldest seen dropped past it (docs/security.md, Bounded storage). Only an explanation is
    // lost with one; the purchase decision stays the service's.
    await dropSeenTradeInsPastCap();
    return json({ ok: true });
  } catch (error) {
    return internalError("trade-in-seen", error);
  }
}
