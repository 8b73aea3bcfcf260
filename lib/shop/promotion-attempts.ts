import "server-only";
import { throttledLogin } from "@/lib/auth/login-throttle";
import { getDb } from "@/lib/db/client";
import { applyPromotionCode, type CartChange } from "./cart";

/**
 * A promotion code tried in the session's cart, under the login throttle's counts
 * (lib/auth/login-throttle.ts, audience "promotion"): per session (4 refused codes, then a lock of
 * 30 s doubling to 15 min) and per client address (19), so codes cannot be guessed freely. Every
 * refused code counts, unknown or not (an expired or too-small code also tells a guesser it
 * exists); an applied one clears nothing. Storage is the throttle's, bounded by its cap: past it
 * a session is counted on a row of its own only while it has an open cart, and those are bounded
 * (lib/shop/cart.ts, the anonymous carts' cap).
 */
export async function tryPromotionCode(
  sessionId: string,
  address: string,
  code: string,
  now = new Date(),
): Promise<CartChange> {
  let refused: CartChange | null = null;
  const attempt = await throttledLogin(
    "promotion",
    sessionId,
    address,
    async () => {
      const result = await applyPromotionCode(sessionId, code);
      if (result.ok) return result;
      refused = result;
      return null;
    },
    now,
    async () =>
      (await getDb().cart.count({ where: { sessionId, checkedOutAt: null }, take: 1 })) > 0,
  );
  if (attempt.ok) return attempt.value;
  if (attempt.locked && attempt.message) return { ok: false, error: attempt.message };
  return refused ?? { ok: false, error: "That promotion code cannot be used." };
}
