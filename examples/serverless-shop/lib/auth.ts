import "server-only";
import { processSingleton } from "@service-integration/kit/server";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { db, type ShopDb } from "./db";
import { account, session, user, verification } from "./schema";
import { shopBaseUrl } from "./shop";

// Better Auth: e-mail and password, its sessions in the shop's one PostgreSQL database through
// its Drizzle adapter (lib/schema.ts holds its four tables). It owns who is signed in; which
// guest session this browser is belongs to the kit's guest cookie (lib/guest.ts).
/** Better Auth on `on` (the shop's database; its tests give their own). */
export const makeAuth = (on: ShopDb) =>
  betterAuth({
    database: drizzleAdapter(on, {
      provider: "pg",
      schema: { user, session, account, verification },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 12 },
    secret: process.env.BETTER_AUTH_SECRET,
    baseURL: shopBaseUrl(),
    telemetry: { enabled: false },
  });

export type Auth = ReturnType<typeof makeAuth>;
export const auth = (): Auth => processSingleton("better-auth", () => makeAuth(db()));

/** The signed-in user of these request headers, or null (a guest). */
export async function signedInUser(headers: Headers, by: Auth = auth()) {
  return (await by.api.getSession({ headers }))?.user ?? null;
}
