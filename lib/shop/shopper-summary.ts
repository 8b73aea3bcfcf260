import type { ShopSessionData } from "@/lib/session/session-data";
import { pageCartCount } from "./cart";

/** The header's part that is one shopper's: how many items are in their cart, whether they are
 *  logged in. Rendered into dynamic pages, fetched by stored catalog pages (`/api/shopper-summary`). */
export interface ShopperSummary {
  cartCount: number;
  signedIn: boolean;
}

export async function shopperSummary(session: ShopSessionData): Promise<ShopperSummary> {
  return {
    cartCount: session.sessionId ? await pageCartCount(session.sessionId) : 0,
    signedIn: Boolean(session.customerId),
  };
}
