// Rate limit per OAuth client (contract, Limits: 100 requests per minute; "per client or per
// token: not shown" — the emulator counts per client). Fixed one-minute windows on the
// emulator clock, so advancing the clock also opens a new window.

export const WINDOW_MS = 60_000;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  limit: number;
  #windows = new Map<string, { start: number; count: number }>();

  constructor(limit: number) {
    this.limit = limit;
  }

  hit(key: string, now: number): RateDecision {
    const start = now - (now % WINDOW_MS);
    let window = this.#windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.#windows.set(key, window);
    }
    window.count++;
    if (window.count <= this.limit) return { ok: true };
    return {
      ok: false,
      retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)),
    };
  }

  reset(): void {
    this.#windows.clear();
  }

  /** Forgets these keys' windows (one merchant's clients, at its reset). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.#windows.delete(key);
  }
}
