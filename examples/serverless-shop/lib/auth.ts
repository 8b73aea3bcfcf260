import "server-only";
import { processSingleton } from "@service-integration/kit/server";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { db } from "./db";
import { account, session, user, verification } from "./schema";
import { shopBaseUrl } from "./shop";

// Better Auth: e-mail and password, its sessions in the shop's one PostgreSQL database through
// its Drizzle adapter (lib/schema.ts holds its four tables). It owns who is signed in; which
// guest session this browser is belongs to the kit's guest cookie (lib/guest.ts).
const makeAuth = () =>
  betterAuth({
    database: drizzleAdapter(db(), {
      provider: "pg",
      schema: { user, session, account, verification },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 12 },
    secret: process.env.BETTER_AUTH_SECRET,
    baseURL: shopBaseUrl(),
    telemetry: { enabled: false },
  });

export const auth = (): ReturnType<typeof makeAuth> => processSingleton("better-auth", makeAuth);

/** The signed-in user of these request headers, or null (a guest). */
export async function signedInUser(headers: Headers) {
  return (await auth().api.getSession({ headers }))?.user ?? null;
}
