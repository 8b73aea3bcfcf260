import "server-only";
import { cookies } from "next/headers";
import { type MiniSession, SESSION_COOKIE, unseal } from "./session";

/** The current shopper's session (proxy.ts made one on the first visit). */
export async function currentSession(): Promise<MiniSession> {
  const session = unseal((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) throw new Error("no shop session (proxy.ts sets one)");
  return session;
}
