import "server-only";
import { cookies } from "next/headers";
import { cookieOptions, type MiniSession, SESSION_COOKIE, seal, unseal } from "./session";

/** The current shopper's session (proxy.ts made one on the first visit). */
export async function currentSession(): Promise<MiniSession> {
  const session = unseal((await cookies()).get(SESSION_COOKIE)?.value);
  if (!session) throw new Error("no shop session (proxy.ts sets one)");
  return session;
}

/** Writes the session cookie (server actions only). */
export async function saveSession(session: MiniSession): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, seal(session), cookieOptions);
}
