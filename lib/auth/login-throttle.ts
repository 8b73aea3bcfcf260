import { createHash } from "node:crypto";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { addressGroup } from "./client-address";

// Login throttling, in the database so every instance counts the same failures (several
// instances are normal). Two keys per attempt: the account (an attacker guessing one password
// from many addresses) and the client address (one address trying many accounts). Past a free
// allowance each further failure locks the key for twice as long as the one before, up to a cap.
// While a key is locked the password is not even checked, so a right guess is no use.
// The table is bounded by count as well as by age (LOGIN_THROTTLE_MAX_ROWS): past the cap a new
// address, or an email with no account, gets no row and is counted nowhere, so a flood of new
// emails and addresses cannot grow the table; an existing account always gets its own row (the
// accounts bound those), so failures of others never lock anyone's correct password
// (docs/decisions/login-throttle-storage.md).

/** Who is counted: shoppers' and admins' sign-ins, and promotion codes tried in a cart (the
 *  "account" is then the session, lib/shop/promotion-attempts.ts). */
export type LoginAudience = "shopper" | "admin" | "promotion";

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
    // IPv6 by its /64 (addressGroup): one subscriber's network is one address here.
    address: throttleKey(`${audience}:address:${addressGroup(address)}`),
  };
}

/**
 * How full the table may be when a new key asks for a row of its own. A new address gets one
 * while fewer than half the cap are taken: the other half stays for accounts, so a flood of new
 * addresses ends uncounted while the accounts it reaches still get their own count.
 */
export function rowsUntil(maxRows: number): { address: number; account: number } {
  return { address: Math.floor(maxRows / 2), account: maxRows };
}

/**
 * The count is kept in one row per window (WINDOW_SECONDS) instead of counting the table at each
 * new key: the window's row starts from the table's true count (one COUNT(*) per window, after
 * the age bound's prune) and goes up by one per key admitted in the window. Rows pruned during
 * the window are not given back until the next one, so the row never counts fewer rows than the
 * table holds. A shorter window frees room sooner after a flood; each costs one COUNT(*).
 */
export const WINDOW_SECONDS = 10 * 60;

/** The row counting the keys admitted in `now`'s window ("window:" is no audience's prefix). */
export function windowKey(now: Date): string {
  return throttleKey(`window:${Math.floor(now.getTime() / (WINDOW_SECONDS * 1000))}`);
}

/** A row with no failure for this long counts for nothing (its lock ended long before). */
const KEEP_SECONDS = Math.max(ACCOUNT_POLICY.forgetAfterSeconds, ADDRESS_POLICY.forgetAfterSeconds);

/**
 * Drops the rows no policy reads any more, on every counted failure, so the table holds only
 * the last hour's failing keys. Bound by age: one address (as clientAddress reads it) adds its own
 * row and one account row per failure it is allowed, ADDRESS_POLICY.free + 1 before its first
 * lock and one per lock that ends after (locked attempts store nothing), all dropped an hour
 * after. Bound by count: LOGIN_THROTTLE_MAX_ROWS, however many emails and addresses (admitRow).
 */
export async function pruneLoginThrottle(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEEP_SECONDS * 1000);
  const { count } = await getDb().loginThrottle.deleteMany({
    where: { lastFailureAt: { lt: before } },
  });
  return count;
}

interface LoginLookUp {
  /** Seconds until a login may be tried, or null: now. */
  lockedFor: number | null;
  /** The address has no row and the window's count has no room for a new one. */
  addressUnclaimable: boolean;
}

/**
 * One read, of the account's and the address's own rows and the window's count: only a key's
 * own failures lock it (a key without a row has none). A refused attempt costs this read only,
 * and so does learning that a new address will not be counted (the table is full for addresses).
 */
async function lookUp(keys: LoginKeys, now: Date, maxRows: number): Promise<LoginLookUp> {
  const window = windowKey(now);
  // Raw SQL costs Prisma about half the time of findMany (measured on SQLite, 2,000 reads 100 at
  // a time).
  const rows = await getDb().$queryRaw<
    { key: string; failures: number; lockedUntil: Date | null }[]
  >`SELECT "key", "failures", "lockedUntil" FROM "LoginThrottle"
    WHERE "key" IN (${keys.account}, ${keys.address}, ${window})`;
  const own = rows.filter((r) => r.key !== window);
  const end = Math.max(0, ...own.map((r) => r.lockedUntil?.getTime() ?? 0));
  const taken = rows.find((r) => r.key === window)?.failures;
  return {
    lockedFor: end > now.getTime() ? Math.ceil((end - now.getTime()) / 1000) : null,
    addressUnclaimable:
      !own.some((r) => r.key === keys.address) &&
      taken !== undefined &&
      taken >= rowsUntil(maxRows).address,
  };
}

/** Null when a login may be tried now, else the seconds until it may. */
export async function loginLockedFor(
  keys: LoginKeys,
  now = new Date(),
  maxRows = getConfig().LOGIN_THROTTLE_MAX_ROWS,
): Promise<number | null> {
  return (await lookUp(keys, now, maxRows)).lockedFor;
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "P2002";

// Rows are looked up before they are written rather than written and the error caught: a
// Prisma error costs milliseconds of CPU to build (its message quotes the call), a read a
// fraction of one, and a flood would otherwise raise one per attempt.
const hasRow = async (key: string) =>
  (await getDb().loginThrottle.findUnique({ where: { key }, select: { key: true } })) !== null;

/** A row that must exist whatever the count (an account's past the cap, a window's count). */
async function ensureRow(key: string, failures: number, lastFailureAt: Date): Promise<void> {
  if (await hasRow(key)) return;
  await getDb()
    .loginThrottle.create({ data: { key, failures, lastFailureAt } })
    .catch((error: unknown) => {
      // Created at this moment by another attempt, which is all that was wanted.
      if (!isUniqueViolation(error)) throw error;
    });
}

/**
 * Takes one place in the window's count, if fewer than `until` are taken: one conditional
 * increment (PostgreSQL locks the row and checks the condition again on its latest value, SQLite
 * writes one at a time), so admissions racing on several instances never take more than `until`.
 * Returns the window's key, or null when full.
 */
async function takePlace(until: number, now: Date): Promise<string | null> {
  const db = getDb();
  const key = windowKey(now);
  const take = async () =>
    (
      await db.loginThrottle.updateMany({
        where: { key, failures: { lt: until } },
        data: { failures: { increment: 1 } },
      })
    ).count === 1;
  if (await take()) return key;
  // The row exists now (another attempt may have made it since this one's take): its count
  // decides, full or not.
  if (await hasRow(key)) return (await take()) ? key : null;
  // The window's first admission: its count starts from the table as it is, after the prune.
  // Stamped so that the age bound drops it when the window ends; no policy reads its times.
  await pruneLoginThrottle(now);
  const rows = await db.loginThrottle.count();
  const start = Math.floor(now.getTime() / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS;
  await ensureRow(key, rows, new Date((start + WINDOW_SECONDS - KEEP_SECONDS) * 1000));
  return (await take()) ? key : null;
}

/**
 * Gives `key`, which has no row, one of its own within the cap, holding its first failure:
 * "created"; "exists" when another attempt created it meanwhile (nothing counted then); "full"
 * when the window's count has no room for it (`until`, rowsUntil). The place is taken before the
 * insert, so the table never holds more keys than the count says; an insert that finds the key
 * created meanwhile gives its place back. Within a few places of the limit, a burst of attempts
 * for one new key can thus briefly fill it: one of them may then go uncounted.
 */
async function admitRow(key: string, until: number, now: Date) {
  const db = getDb();
  const window = await takePlace(until, now);
  // No place, perhaps because attempts for this same key hold places for the moment, about to
  // give them back: the row one of them created is this key's own.
  if (window === null) return (await hasRow(key)) ? "exists" : "full";
  try {
    await db.loginThrottle.create({ data: { key, failures: 1, lastFailureAt: now } });
    return "created";
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await db.loginThrottle.updateMany({
      where: { key: window },
      data: { failures: { decrement: 1 } },
    });
    return "exists";
  }
}

const isMissingRow = (error: unknown) => (error as { code?: unknown } | null)?.code === "P2025";

/** Counts a failed login against the account; returns the lock it caused in seconds (0: none).
 *  The address was counted when the attempt claimed it. */
export async function recordLoginFailure(
  keys: LoginKeys,
  accountExists: () => Promise<boolean>,
  now = new Date(),
  maxRows = getConfig().LOGIN_THROTTLE_MAX_ROWS,
): Promise<number> {
  await pruneLoginThrottle(now);
  const until = rowsUntil(maxRows).account;
  return countFailure(keys.account, accountExists, until, ACCOUNT_POLICY, now);
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

async function countFailure(
  key: string,
  accountExists: () => Promise<boolean>,
  until: number,
  policy: ThrottlePolicy,
  now: Date,
): Promise<number> {
  const db = getDb();
  // One atomic increment, so concurrent failures on several instances are all counted.
  const increment = async (counted: string) => {
    await forgetStale(counted, policy, now);
    const row = await db.loginThrottle.update({
      where: { key: counted },
      data: { failures: { increment: 1 }, lastFailureAt: now },
    });
    return lockFor(counted, row.failures, policy, now);
  };
  if (await hasRow(key)) {
    try {
      return await increment(key);
    } catch (error) {
      // Pruned a moment ago by another instance: admitted again below.
      if (!isMissingRow(error)) throw error;
    }
  }
  // No row: the key's first failure.
  const admitted = await admitRow(key, until, now);
  if (admitted === "created") return lockFor(key, 1, policy, now);
  if (admitted === "exists") return increment(key);
  // The table is full. An email with no account has no password to guess: not counted. An
  // existing account gets its own row past the cap (the accounts bound those rows), so its lock
  // is its own failures' and never another's: the window's count takes it too, to stay at least
  // the table's.
  if (!(await accountExists())) return 0;
  await getDb().loginThrottle.updateMany({
    where: { key: windowKey(now) },
    data: { failures: { increment: 1 } },
  });
  await ensureRow(key, 0, now);
  return increment(key);
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
 * Returns the key claimed; "unclaimed" when the table has no room for a new address (nothing is
 * counted for it: addresses never share a lock); null when refused.
 */
async function claimAddress(keys: LoginKeys, maxRows: number, now: Date) {
  if (await claimFrom(keys.address, now)) return keys.address;
  // No row yet, or a claim refused (then a row created at this moment gets one more try).
  const admitted = (await hasRow(keys.address))
    ? "exists"
    : await admitRow(keys.address, rowsUntil(maxRows).address, now);
  if (admitted === "created") return keys.address;
  if (admitted === "exists") {
    return (await claimFrom(keys.address, now, false)) ? keys.address : null;
  }
  return "unclaimed";
}

async function claimFrom(key: string, now: Date, firstTry = true): Promise<boolean> {
  const db = getDb();
  if (firstTry) await forgetStale(key, ADDRESS_POLICY, now);
  const { count } = await db.loginThrottle.updateMany({
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
  return count === 1;
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

export function lockedMessage(seconds: number, audience: LoginAudience = "shopper"): string {
  if (audience === "promotion") {
    return `Too many promotion codes tried. Try another code in ${waitText(seconds)}.`;
  }
  return `Too many failed sign-in attempts. For your security, signing in is paused: try again in ${waitText(seconds)}.`;
}

/**
 * One login attempt under the throttle: refused while the account's or the address's own key is
 * locked (the password is not checked then), counted when `verify` finds no match, cleared for
 * the account when it does. Failures of others never refuse a correct password: past the cap
 * (LOGIN_THROTTLE_MAX_ROWS, lib/config.ts) a new address is not counted, and its attempts are
 * checked only for an existing account (`accountExists`, one indexed read): an email with no
 * account is answered as a wrong password without the password's hash being computed, so a
 * flood of invented emails from invented addresses costs no scrypt, while each account is still
 * locked by its own failures (docs/decisions/login-throttle-storage.md).
 */
export async function throttledLogin<T>(
  audience: LoginAudience,
  email: string,
  address: string,
  verify: () => Promise<T | null>,
  now = new Date(),
  accountExists: () => Promise<boolean> = async () => false,
): Promise<{ ok: true; value: T } | { ok: false; locked: boolean; message?: string }> {
  const maxRows = getConfig().LOGIN_THROTTLE_MAX_ROWS;
  const keys = loginKeys(audience, email, address);
  const first = await lookUp(keys, now, maxRows);
  if (first.lockedFor !== null) {
    return { ok: false, locked: true, message: lockedMessage(first.lockedFor, audience) };
  }
  const claimed = first.addressUnclaimable ? "unclaimed" : await claimAddress(keys, maxRows, now);
  if (claimed === null) {
    const wait = (await loginLockedFor(keys, now, maxRows)) ?? ADDRESS_POLICY.firstLockSeconds;
    return { ok: false, locked: true, message: lockedMessage(wait, audience) };
  }
  if (claimed === "unclaimed" && !(await accountExists())) return { ok: false, locked: false };
  const value = await verify();
  if (value === null) {
    const [account, addressLock] = [
      await recordLoginFailure(keys, accountExists, now, maxRows),
      claimed === "unclaimed" ? 0 : await settleAddress(claimed, now),
    ];
    const lock = Math.max(account, addressLock);
    return lock > 0
      ? { ok: false, locked: true, message: lockedMessage(lock, audience) }
      : { ok: false, locked: false };
  }
  // A right password proves the account's owner; a valid promotion code proves nothing (it may be
  // one the guesser knows, applied between guesses): its failures stand.
  if (audience === "promotion") return { ok: true, value };
  if (claimed !== "unclaimed") await releaseAddress(claimed);
  await recordLoginSuccess(keys);
  return { ok: true, value };
}
