import type { Millis } from "./domain";

export type ClockListener = (now: Millis, previous: Millis) => void;

/**
 * The emulator's one clock. Every expiry (tokens, valid_until, sessions, rate-limit windows,
 * the webhook retry schedule) reads `now()`. It is real time plus an offset, so things also
 * expire by themselves while the emulator runs; the control API moves the offset.
 */
export class Clock {
  #offset = 0;
  /** Set while the clock is stopped: a boundary (`valid_until` exactly) can then be tested. */
  #frozenAt: Millis | null = null;
  readonly #listeners = new Set<ClockListener>();

  now(): Millis {
    return this.#frozenAt ?? Date.now() + this.#offset;
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

  /** Back to real time, running. */
  reset(): Millis {
    return this.#move(0, null);
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
    for (const listener of this.#listeners) {
      try {
        listener(now, previous);
      } catch {
        // A failing listener must not stop the clock nor the other listeners.
      }
    }
    return now;
  }
}
