import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";

// Login throttling, in the database so every instance counts the same failures (several
// instances are normal). Two keys per attempt: the account (an attacker guessing one password
// from many addresses) and the client address (one address trying many accounts). Past a free
// allowance each further failure locks the key for twice as long as the one before, up to a cap.
// While a key is locked the password is not even checked, so a right guess is no use.

export type LoginAudience = "shopper" | "admin";

export interface ThrottlePolicy {
  /** failures allowed before the first lock */
  free: number;
  firstLockSeconds: number;
  maxLockSeconds: number;
  /** a key with no failure for this long starts again from zero */
  forgetAfterSeconds: number;
}

export const ACCOUNT_POLICY: ThrottlePolicy = {
  free: 4,
  firstLockSeconds: 30,
  maxLockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** An address may mistype a few accounts (a shared office, a family) before it is slowed. */
export const ADDRESS_POLICY: ThrottlePolicy = { ...ACCOUNT_POLICY, free: 19 };

export function lockSeconds(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.free) return 0;
  const doublings = Math.min(failures - policy.free - 1, 20);
  return Math.min(policy.firstLockSeconds * 2 ** doublings, policy.maxLockSeconds);
}

export interface LoginKeys {
  account: string;
  address: string;
}

/** A key is a SHA-256 in hex (64 characters) whatever was typed: a row's size never depends on
 *  the request, and the table holds no email address. */
function throttleKey(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function loginKeys(audience: LoginAudience, email: string, address: string): LoginKeys {
  return {
    account: throttleKey(`${audience}:account:${email.trim().toLowerCase()}`),
    address: throttleKey(`${audience}:address:${address}`),
  };
}

/** A row with no failure for this long counts for nothing (its lock ended long before). */
const KEEP_SECONDS = Math.max(ACCOUNT_POLICY.forgetAfterSeconds, ADDRESS_POLICY.forgetAfterSeconds);

/**
 * Drops the rows no policy reads any more, on every counted failure, so the table holds only
 * the last hour's failing keys. Bound: one address (as clientAddress reads it) adds its own row
 * and one account row per failure it is allowed, ADDRESS_POLICY.free + 1 before its first lock
 * and one per lock that ends after (locked attempts store nothing), all dropped an hour after.
 */
export async function pruneLoginThrottle(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEEP_SECONDS * 1000);
  const { count } = await getDb().loginThrottle.deleteMany({
    where: { lastFailureAt: { lt: before } },
  });
  return count;
}

/** Null when a login may be tried now, else the seconds until it may. */
export async function loginLockedFor(keys: LoginKeys, now = new Date()): Promise<number | null> {
  const rows = await getDb().loginThrottle.findMany({
    where: { key: { in: [keys.account, keys.address] }, lockedUntil: { gt: now } },
    select: { lockedUntil: true },
  });
  const until = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : null;
}

/** Counts a failed login against both keys; returns the lock it caused in seconds (0: none). */
export async function recordLoginFailure(keys: LoginKeys, now = new Date()): Promise<number> {
  await pruneLoginThrottle(now);
  const [account, address] = await Promise.all([
    countFailure(keys.account, ACCOUNT_POLICY, now),
    countFailure(keys.address, ADDRESS_POLICY, now),
  ]);
  return Math.max(account, address);
}

/** A successful login clears the account's failures (not the address's: others may share it). */
export async function recordLoginSuccess(keys: LoginKeys): Promise<void> {
  await getDb().loginThrottle.deleteMany({ where: { key: keys.account } });
}

async function countFailure(key: string, policy: ThrottlePolicy, now: Date): Promise<number> {
  const db = getDb();
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterSeconds * 1000);
  // A stale count starts again; then one atomic increment, so concurrent failures on several
  // instances are all counted.
  await db.loginThrottle.updateMany({
    where: { key, lastFailureAt: { lt: forgetBefore } },
    data: { failures: 0, lockedUntil: null },
  });
  const row = await db.loginThrottle.upsert({
    where: { key },
    create: { key, failures: 1, lastFailureAt: now },
    update: { failures: { increment: 1 }, lastFailureAt: now },
  });
  const seconds = lockSeconds(row.failures, policy);
  if (seconds > 0) {
    await db.loginThrottle.update({
      where: { key },
      data: { lockedUntil: new Date(now.getTime() + seconds * 1000) },
    });
  }
  return seconds;
}

/** "30 seconds", "2 minutes": for the message the person sees. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

export function lockedMessage(seconds: number): string {
  return `Too many failed sign-in attempts. For your security, signing in is paused: try again in ${waitText(seconds)}.`;
}

/**
 * One login attempt under the throttle: refused while either key is locked (the password is not
 * checked then), counted when `verify` finds no match, cleared for the account when it does.
 */
export async function throttledLogin<T>(
  audience: LoginAudience,
  email: string,
  address: string,
  verify: () => Promise<T | null>,
  now = new Date(),
): Promise<{ ok: true; value: T } | { ok: false; locked: boolean; message?: string }> {
  const keys = loginKeys(audience, email, address);
  const locked = await loginLockedFor(keys, now);
  if (locked !== null) return { ok: false, locked: true, message: lockedMessage(locked) };
  const value = await verify();
  if (value === null) {
    const lock = await recordLoginFailure(keys, now);
    return lock > 0
      ? { ok: false, locked: true, message: lockedMessage(lock) }
      : { ok: false, locked: false };
  }
  await recordLoginSuccess(keys);
  return { ok: true, value };
}
