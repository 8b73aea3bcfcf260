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

/** Counts a failed login against the account; returns the lock it caused in seconds (0: none).
 *  The address was counted when the attempt claimed it (claimAddress). */
export async function recordLoginFailure(keys: LoginKeys, now = new Date()): Promise<number> {
  await pruneLoginThrottle(now);
  return countFailure(keys.account, ACCOUNT_POLICY, now);
}

/** A successful login clears the account's failures (not the address's: others may share it). */
export async function recordLoginSuccess(keys: LoginKeys): Promise<void> {
  await getDb().loginThrottle.deleteMany({ where: { key: keys.account } });
}

/** A stale count starts again: no failure for `forgetAfterSeconds`. */
async function forgetStale(key: string, policy: ThrottlePolicy, now: Date): Promise<void> {
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterSeconds * 1000);
  await getDb().loginThrottle.updateMany({
    where: { key, lastFailureAt: { lt: forgetBefore } },
    data: { failures: 0, lockedUntil: null },
  });
}

async function countFailure(key: string, policy: ThrottlePolicy, now: Date): Promise<number> {
  const db = getDb();
  // One atomic increment, so concurrent failures on several instances are all counted.
  await forgetStale(key, policy, now);
  const row = await db.loginThrottle.upsert({
    where: { key },
    create: { key, failures: 1, lastFailureAt: now },
    update: { failures: { increment: 1 }, lastFailureAt: now },
  });
  return lockFor(key, row.failures, policy, now);
}

async function lockFor(key: string, failures: number, policy: ThrottlePolicy, now: Date) {
  const seconds = lockSeconds(failures, policy);
  if (seconds > 0) {
    await getDb().loginThrottle.update({
      where: { key },
      data: { lockedUntil: new Date(now.getTime() + seconds * 1000) },
    });
  }
  return seconds;
}

/**
 * An attempt takes one of its address's allowed failures before the password is checked, in
 * one conditional update, so attempts arriving together cannot all slip past a lock that the
 * first of them is about to set: within the allowance any number may claim; past it, exactly
 * one per ended lock (the first claim after the lock sets `lastFailureAt` past `lockedUntil`,
 * which closes the door until its own outcome is written). A refused claim stores nothing
 * and checks no password. This is what bounds the rows one address can make the shop store.
 */
async function claimAddress(key: string, now: Date): Promise<boolean> {
  const db = getDb();
  await forgetStale(key, ADDRESS_POLICY, now);
  const claim = () =>
    db.loginThrottle.updateMany({
      where: {
        key,
        OR: [
          { lockedUntil: null, failures: { lte: ADDRESS_POLICY.free } },
          {
            lockedUntil: { lte: now },
            lastFailureAt: { lt: db.loginThrottle.fields.lockedUntil },
          },
        ],
      },
      data: { failures: { increment: 1 }, lastFailureAt: now },
    });
  if ((await claim()).count === 1) return true;
  // No row yet (or a claim refused): make sure the row exists (another attempt may be creating
  // it at this moment), then claim once more.
  await db.loginThrottle
    .create({ data: { key, failures: 0, lastFailureAt: now } })
    .catch((error: unknown) => {
      // P2002: the unique key exists already, which is all that was wanted.
      if ((error as { code?: unknown } | null)?.code !== "P2002") throw error;
    });
  return (await claim()).count === 1;
}

/** The attempt failed: its claimed failure stands; lock the address if it was one too many. */
async function settleAddress(key: string, now: Date): Promise<number> {
  const row = await getDb().loginThrottle.findUnique({ where: { key } });
  return row ? lockFor(key, row.failures, ADDRESS_POLICY, now) : 0;
}

/** The attempt succeeded: give the claimed failure back and reopen the door it held shut. */
async function releaseAddress(key: string): Promise<void> {
  const db = getDb();
  const row = await db.loginThrottle.findUnique({ where: { key } });
  if (!row) return;
  await db.loginThrottle.update({
    where: { key },
    data: {
      failures: Math.max(0, row.failures - 1),
      ...(row.lockedUntil ? { lastFailureAt: new Date(row.lockedUntil.getTime() - 1) } : {}),
    },
  });
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
  if (!(await claimAddress(keys.address, now))) {
    const wait = (await loginLockedFor(keys, now)) ?? ADDRESS_POLICY.firstLockSeconds;
    return { ok: false, locked: true, message: lockedMessage(wait) };
  }
  const value = await verify();
  if (value === null) {
    const [account, addressLock] = [
      await recordLoginFailure(keys, now),
      await settleAddress(keys.address, now),
    ];
    const lock = Math.max(account, addressLock);
    return lock > 0
      ? { ok: false, locked: true, message: lockedMessage(lock) }
      : { ok: false, locked: false };
  }
  await releaseAddress(keys.address);
  await recordLoginSuccess(keys);
  return { ok: true, value };
}
