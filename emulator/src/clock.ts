import type { Millis } from "./domain";

/** `merchant` is set when only that merchant's clock moved. */
export type ClockListener = (now: Millis, previous: Millis, merchant?: string) => void;

/** A merchant's own clock: the emulator clock plus an offset, or stopped at a time. */
interface MerchantClock {
  offset: Millis;
  frozenAt: Millis | null;
}

/**
 * The emulator's clock. Every expiry (tokens, valid_until, sessions, rate-limit windows,
 * the webhook retry schedule) reads `now()`. It is real time plus an offset, so things also
 * expire by themselves while the emulator runs; the control API moves the offset.
 *
 * Each merchant reads `now(merchantId)`: the emulator clock plus that merchant's own offset
 * (zero until `POST /__emulator/merchants/{id}/clock` moves it), or the time it stands at when
 * frozen. Moving the emulator clock moves every merchant's clock with it; moving one merchant's
 * clock moves no other's, so several test workers can share one emulator.
 */
export class Clock {
  #offset = 0;
  /** Set while the clock is stopped: a boundary (`valid_until` exactly) can then be tested. */
  #frozenAt: Millis | null = null;
  readonly #listeners = new Set<ClockListener>();
  readonly #merchants = new Map<string, MerchantClock>();

  /** The emulator clock, or with a merchant id that merchant's clock. */
  now(merchant?: string): Millis {
    const base = this.#frozenAt ?? Date.now() + this.#offset;
    if (merchant === undefined) return base;
    const own = this.#merchants.get(merchant);
    if (!own) return base;
    return own.frozenAt ?? base + own.offset;
  }

  /**
   * A merchant's clock as the control API shows it: `offset_ms` from real time (as the emulator
   * clock's), `merchant_offset_ms` from the emulator clock (this merchant's own move).
   */
  merchantView(merchant: string): {
    offset_ms: Millis;
    merchant_offset_ms: Millis;
    frozen: boolean;
  } {
    const own = this.#merchants.get(merchant);
    // One read of real time, so a clock that was not moved shows exactly 0.
    const real = Date.now();
    const base = this.#frozenAt ?? real + this.#offset;
    const now = own ? (own.frozenAt ?? base + own.offset) : base;
    const frozen = (own?.frozenAt ?? null) !== null || this.frozen;
    return { offset_ms: now - real, merchant_offset_ms: now - base, frozen };
  }

  /** Moves one merchant's clock (a negative amount moves it back); others stay where they are. */
  advanceMerchant(merchant: string, ms: Millis): Millis {
    const own = this.#merchants.get(merchant) ?? { offset: 0, frozenAt: null };
    return this.#moveMerchant(merchant, {
      offset: own.offset + ms,
      frozenAt: own.frozenAt === null ? null : own.frozenAt + ms,
    });
  }

  /** Sets one merchant's clock to an absolute time; it keeps running unless `freeze`. */
  setMerchant(merchant: string, at: Millis, freeze = false): Millis {
    return this.#moveMerchant(merchant, { offset: at - this.now(), frozenAt: freeze ? at : null });
  }

  /** One merchant's clock back to the emulator clock. */
  resetMerchant(merchant: string): Millis {
    const previous = this.now(merchant);
    this.#merchants.delete(merchant);
    this.#notify(this.now(merchant), previous, merchant);
    return this.now(merchant);
  }

  /** Every merchant clock that differs from the emulator clock (saved with --state). */
  merchantClocks(): Record<string, { offset_ms: Millis; frozen_at_ms?: Millis }> {
    const out: Record<string, { offset_ms: Millis; frozen_at_ms?: Millis }> = {};
    for (const [id, own] of this.#merchants) {
      out[id] = {
        offset_ms: own.offset,
        ...(own.frozenAt === null ? {} : { frozen_at_ms: own.frozenAt }),
      };
    }
    return out;
  }

  #moveMerchant(merchant: string, next: MerchantClock): Millis {
    const previous = this.now(merchant);
    this.#merchants.set(merchant, next);
    const now = this.now(merchant);
    this.#notify(now, previous, merchant);
    return now;
  }

  get frozen(): boolean {
    return this.#frozenAt !== null;
  }

  iso(at: Millis = this.now()): string {
    return new Date(at).toISOString();
  }

  get offset(): Millis {
    return this.#offset;
  }

  /** Moves the clock forward (a negative amount moves it back); a stopped clock stays stopped. */
  advance(ms: Millis): Millis {
    return this.#move(this.#offset + ms, this.#frozenAt === null ? null : this.#frozenAt + ms);
  }

  /** Sets the clock to an absolute time; it keeps running from there unless `freeze`. */
  set(at: Millis, freeze = false): Millis {
    return this.#move(at - Date.now(), freeze ? at : null);
  }

  /** Back to real time, running; every merchant's clock back to it too. */
  reset(): Millis {
    this.#merchants.clear();
    return this.#move(0, null);
  }

  /**
   * Resolves once `now(merchant)` reaches `at`: as real time passes, or as soon as the clock is
   * moved past it (an injected latency is held on the merchant's clock, so a test moves the
   * clock instead of waiting it out). A stopped clock ends it only by being moved.
   */
  until(at: Millis, merchant?: string): Promise<void> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const check = () => {
        clearTimeout(timer);
        const left = at - this.now(merchant);
        if (left <= 0) {
          stop();
          resolve();
          return;
        }
        timer = setTimeout(check, left);
      };
      const stop = this.onChange(check);
      check();
    });
  }

  /** Called after every jump with the new and the previous time. Returns an unsubscribe. */
  onChange(listener: ClockListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #move(offset: Millis, frozenAt: Millis | null): Millis {
    const previous = this.now();
    this.#offset = offset;
    this.#frozenAt = frozenAt;
    const now = this.now();
    // A stopped merchant clock moves with the emulator clock, as a running one does.
    for (const own of this.#merchants.values()) {
      if (own.frozenAt !== null) own.frozenAt += now - previous;
    }
    this.#notify(now, previous);
    return now;
  }

  #notify(now: Millis, previous: Millis, merchant?: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(now, previous, merchant);
      } catch {
        // A failing listener must not stop the clock nor the other listeners.
      }
    }
  }
}
