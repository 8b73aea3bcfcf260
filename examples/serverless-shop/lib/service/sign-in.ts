import type { TradeInRegistrationStore } from "@service-integration/kit";
import type { GuestSession } from "@service-integration/kit/server";
import type { ShopDb } from "../db";
import { carryCart } from "../shop";

/**
 * After Better Auth signed `customerId` in and the kit's guest identity issued the new session
 * `to` (GuestIdentity.signIn): the session it replaced, when it was the guest's own (`carried`;
 * null for another customer's), hands over its cart and the trade-in its browser saw, which the
 * kit keeps by session (TradeInRegistrationStore.carryTradeInSeen: a card payment after sign-in
 * still explains a valuation seen before it). Nothing of another customer's session is carried.
 */
export async function carryGuest(
  carried: GuestSession | null,
  to: GuestSession,
  customerId: string,
  deps: { tradeIns: Pick<TradeInRegistrationStore, "carryTradeInSeen">; db?: ShopDb },
): Promise<void> {
  if (!carried) return;
  await carryCart(carried.sessionId, to.sessionId, customerId, deps.db);
  await deps.tradeIns.carryTradeInSeen(carried.sessionId, to.sessionId);
}
