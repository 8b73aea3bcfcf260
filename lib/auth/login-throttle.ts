import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";

// Login throttling, in the database so every instance counts the same failures (several
// instances are normal). Two keys per attempt: the account (an attacker guessing one password
// from many addresses) and the client address (one address trying many accounts). Past a free
// allowance each further failure locks the key for twice as long as the one before, up to a cap.
// While a key is locked the password is not even checked, so a right guess is no use.
// The table is bounded by count as well as by age (LOGIN_THROTTLE_MAX_ROWS): past the cap a key
// without a row of its own is counted in its kind's shared overflow bucket, so a flood of new
// emails and addresses is throttled as a whole instead of growing the table
// (docs/decisions/login-throttle-storage.md).

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
  /** Where this audience's accounts without a row of their own are counted past the cap. */
  accountOverflow: string;
  /** Where this audience's addresses without a row of their own are counted past the cap. */
  addressOverflow: string;
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
    // No email or address hashes to these: theirs start "account:" and "address:".
    accountOverflow: throttleKey(`${audience}:overflow:account`),
    addressOverflow: throttleKey(`${audience}:overflow:address`),
  };
}

/**
 * The most rows LoginThrottle ever holds, whatever fails (docs/decisions/login-throttle-storage.md).
 * Rows are the last hour's failing accounts and the last hour's sign-in addresses (an attempt
 * claims its address before the password check).
 */
export const LOGIN_THROTTLE_MAX_ROWS = 10_000;

/** The rows outside the admission count: the four overflow buckets (two audiences, two kinds),
 *  created whenever needed so the cap never refuses them. */
const RESERVED_ROWS = 4;

/**
 * How full the table may be when a new key asks for a row of its own. A new address gets one
 * only while the table holds fewer than half the cap: the other half stays for accounts, so a
 * flood of new addresses ends in the address overflow bucket while each account it reaches
 * still gets its own count. A new account gets one while there is room beside the buckets.
 */
export function rowsUntil(maxRows: number): { address: number; account: number } {
  return { address: Math.floor(maxRows / 2), account: maxRows - RESERVED_ROWS };
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

/** Null when a login may be tried now, else the seconds until it may. A key without a row of its
 *  own is under its overflow bucket's lock: its failures past the cap were counted there. */
export async function loginLockedFor(keys: LoginKeys, now = new Date()): Promise<number | null> {
  const rows = await getDb().loginThrottle.findMany({
    where: {
      key: { in: [keys.account, keys.address, keys.accountOverflow, keys.addressOverflow] },
    },
    select: { key: true, lockedUntil: true },
  });
  const row = (key: string) => rows.find((r) => r.key === key);
  const counted = [
    row(keys.account) ?? row(keys.accountOverflow),
    row(keys.address) ?? row(keys.addressOverflow),
  ];
  const until = Math.max(0, ...counted.map((r) => r?.lockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : null;
}

/**
 * Makes sure `key` has a row, within the cap: true when it has one (found or created now), false
 * when the table already holds `until` rows (rowsUntil). Count and insert are one statement, with
 * no transaction to wait for (a flood keeps every connection busy): SQLite runs it under its one
 * write lock, so it never overshoots. On PostgreSQL admissions racing on several connections may
 * each count before the others' inserts commit, so each counts again after its own: one that
 * finds the table past `until` takes its row back (unless an attempt already counted in it) and
 * goes to the overflow bucket. The table thus settles at or below the cap; the overshoot is at
 * most the admissions in flight, for two statements. Two plain reads go first: a row that exists
 * needs no admission, and a full table none either (a flood past the cap costs two reads).
 */
async function admitRow(key: string, until: number, now: Date): Promise<boolean> {
  const db = getDb();
  const exists = async () =>
    (await db.loginThrottle.findUnique({ where: { key }, select: { key: true } })) !== null;
  if (await exists()) return true;
  if ((await db.loginThrottle.count()) >= until) return false;
  const inserted = await db.$executeRaw`
    INSERT INTO "LoginThrottle" ("key", "failures", "lastFailureAt")
    SELECT ${key}, 0, ${now} WHERE (SELECT COUNT(*) FROM "LoginThrottle") < ${until}
    ON CONFLICT ("key") DO NOTHING`;
  // Not inserted: full, or another attempt created the row at this moment.
  if (inserted !== 1) return exists();
  if ((await db.loginThrottle.count()) <= until) return true;
  const { count } = await db.loginThrottle.deleteMany({ where: { key, failures: 0 } });
  return count === 0;
}

/** An overflow bucket's row (one of RESERVED_ROWS: created whatever the count). */
async function ensureOverflowRow(key: string, now: Date): Promise<void> {
  const db = getDb();
  // Read first: the bucket exists for the whole of a flood, and a failed insert is an error in
  // PostgreSQL's log each time.
  if (await db.loginThrottle.findUnique({ where: { key }, select: { key: true } })) return;
  await db.loginThrottle
    .create({ data: { key, failures: 0, lastFailureAt: now } })
    .catch((error: unknown) => {
      // P2002: the unique key exists already, which is all that was wanted.
      if ((error as { code?: unknown } | null)?.code !== "P2002") throw error;
    });
}

/** Counts a failed login against the account; returns the lock it caused in seconds (0: none).
 *  The address was counted when the attempt claimed it (claimAddress). */
export async function recordLoginFailure(
  keys: LoginKeys,
  now = new Date(),
  maxRows = LOGIN_THROTTLE_MAX_ROWS,
): Promise<number> {
  await pruneLoginThrottle(now);
  const until = rowsUntil(maxRows).account;
  return countFailure(keys.account, keys.accountOverflow, until, ACCOUNT_POLICY, now);
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

/** The key's own row, admitted within the cap, or else its overflow bucket: the row counted. */
async function countedRow(key: string, overflow: string, until: number, now: Date) {
  if (await admitRow(key, until, now)) return key;
  await ensureOverflowRow(overflow, now);
  return overflow;
}

async function countFailure(
  key: string,
  overflow: string,
  until: number,
  policy: ThrottlePolicy,
  now: Date,
) {
  const db = getDb();
  // A prune on another instance may drop an old row between its admission and the increment
  // (P2025): admit it again, once.
  for (let attempt = 0; ; attempt++) {
    const counted = await countedRow(key, overflow, until, now);
    await forgetStale(counted, policy, now);
    try {
      // One atomic increment, so concurrent failures on several instances are all counted.
      const row = await db.loginThrottle.update({
        where: { key: counted },
        data: { failures: { increment: 1 }, lastFailureAt: now },
      });
      return lockFor(counted, row.failures, policy, now);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== "P2025" || attempt > 0) throw error;
    }
  }
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
 * An address that gets no row of its own (the cap) claims from the overflow bucket instead.
 * Returns the key claimed, or null when refused.
 */
async function claimAddress(keys: LoginKeys, maxRows: number, now: Date) {
  if (await claimFrom(keys.address, now)) return keys.address;
  // No row yet (or a claim refused): make sure the row exists within the cap (another attempt
  // may be creating it at this moment), or count in the overflow bucket, then claim once more.
  const until = rowsUntil(maxRows).address;
  const counted = await countedRow(keys.address, keys.addressOverflow, until, now);
  return (await claimFrom(counted, now, counted !== keys.address)) ? counted : null;
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

export function lockedMessage(seconds: number): string {
  return `Too many failed sign-in attempts. For your security, signing in is paused: try again in ${waitText(seconds)}.`;
}

/**
 * One login attempt under the throttle: refused while either key is locked (the password is not
 * checked then), counted when `verify` finds no match, cleared for the account when it does.
 * `maxRows` is LOGIN_THROTTLE_MAX_ROWS for every login; a test passes a small one to reach the
 * cap in a hundred attempts instead of thousands.
 */
export async function throttledLogin<T>(
  audience: LoginAudience,
  email: string,
  address: string,
  verify: () => Promise<T | null>,
  now = new Date(),
  maxRows = LOGIN_THROTTLE_MAX_ROWS,
): Promise<{ ok: true; value: T } | { ok: false; locked: boolean; message?: string }> {
  const keys = loginKeys(audience, email, address);
  const locked = await loginLockedFor(keys, now);
  if (locked !== null) return { ok: false, locked: true, message: lockedMessage(locked) };
  const claimed = await claimAddress(keys, maxRows, now);
  if (claimed === null) {
    const wait = (await loginLockedFor(keys, now)) ?? ADDRESS_POLICY.firstLockSeconds;
    return { ok: false, locked: true, message: lockedMessage(wait) };
  }
  const value = await verify();
  if (value === null) {
    const [account, addressLock] = [
      await recordLoginFailure(keys, now, maxRows),
      await settleAddress(claimed, now),
    ];
    const lock = Math.max(account, addressLock);
    return lock > 0
      ? { ok: false, locked: true, message: lockedMessage(lock) }
      : { ok: false, locked: false };
  }
  await releaseAddress(claimed);
  await recordLoginSuccess(keys);
  return { ok: true, value };
}
