import "server-only";
import type { ShopperIdentity } from "@service-integration/kit";
import { headers } from "next/headers";
import { signedInUser } from "./auth";
import { guests } from "./guest";

/** The current shopper: the guest identity proxy.ts made, and Better Auth's signed-in user. */
export async function currentShopper(): Promise<
  ShopperIdentity & { name: string | null; email: string | null }
> {
  const h = await headers();
  const guest = guests().read(h.get("cookie"));
  if (!guest) throw new Error("no guest identity (proxy.ts sets one)");
  const user = await signedInUser(h);
  return { ...guest, customerId: user?.id, name: user?.name ?? null, email: user?.email ?? null };
}
