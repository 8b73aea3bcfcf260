import type { StoredTokens, TokenStore } from "../shop-ports.js";

/** Tests only: a TokenStore in memory (production keeps tokens in the shop's database). */
export class MemoryTokenStore implements TokenStore {
  private tokens: StoredTokens | null;

  constructor(initial: StoredTokens | null = null) {
    this.tokens = initial ? { ...initial } : null;
  }

  /** The tokens saved last (a copy), or the initial ones, or null. */
  async load() {
    return this.tokens ? { ...this.tokens } : null;
  }

  /** Keeps a copy of `tokens` in place of the previous ones. */
  async save(tokens: StoredTokens) {
    this.tokens = { ...tokens };
  }

  private lease: { holder: string; until: number } | null = null;

  /** Every call, in order, so tests can see who waited for the lease. */
  readonly leaseCalls: {
    /** Who asked for the lease. */
    holder: string;
    /** Whether it got it. */
    acquired: boolean;
  }[] = [];

  async acquireRenewalLease(holder: string, ttlMs: number) {
    const now = Date.now();
    const acquired = !this.lease || this.lease.until <= now || this.lease.holder === holder;
    if (acquired) this.lease = { holder, until: now + ttlMs };
    this.leaseCalls.push({ holder, acquired });
    return acquired;
  }

  async releaseRenewalLease(holder: string) {
    if (this.lease?.holder === holder) this.lease = null;
  }
}
