import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { z } from "zod";

// The shop's own login session: a sealed (AES-256-GCM), httpOnly cookie. It carries the guest
// identity the kit's SessionIdentity reads (sessionId + salt, created on the first visit,
// kept at sign-in, replaced at sign-out: docs/decisions/session-identity.md) and the signed-in
// customer. No imports from next/*: proxy.ts, pages, actions and routes all use it.

export const SESSION_COOKIE = "mini_session";

const sessionSchema = z.object({
  sessionId: z.string().regex(/^[0-9a-f]{64}$/),
  salt: z.string().regex(/^[0-9a-f]{64}$/),
  customerId: z.string().optional(),
});
export type MiniSession = z.infer<typeof sessionSchema>;

function key(): Buffer {
  const secret = process.env.MINI_SESSION_SECRET;
  if (!secret || secret.length < 32)
    throw new Error("MINI_SESSION_SECRET (32+ characters) is required");
  return createHash("sha256").update(secret).digest();
}

export function newSession(): MiniSession {
  return { sessionId: randomBytes(32).toString("hex"), salt: randomBytes(32).toString("hex") };
}

export function seal(session: MiniSession): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(session)), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function unseal(value: string | undefined | null): MiniSession | null {
  if (!value) return null;
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString();
    const parsed = sessionSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const cookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.MINI_SECURE_COOKIE === "1",
  path: "/",
  maxAge: 60 * 60 * 24 * 30,
} as const;

/** The session of a request's own Cookie header (route handlers, SessionIdentity). */
export function sessionOfRequest(request: Request): MiniSession | null {
  const header = request.headers.get("cookie") ?? "";
  const value = header
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  return unseal(value ? decodeURIComponent(value) : null);
}
