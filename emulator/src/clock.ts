import type { Millis } from "./domain";

export type ClockListener = (now: Millis, previous: Millis) => void;

/**
 * The emulator's one clock. Every expiry (tokens, valid_until, sessions, rate-limit windows,
 * the webhook retry schedule) reads `now()`. It is real time plus an offset, so things also
 * expire by themselves while the emulator runs; the control API moves the offset.
 */
export class Clock {
  #offset = 0;
  readonly #listeners = new Set<ClockListener>();

  now(): Millis {
    return Date.now() + this.#offset;
  }

  iso(at: Millis = this.now()): string {
    return new Date(at).toISOString();
  }

  get offset(): Millis {
    return this.#offset;
  }

  /** Moves the clock forward (a negative amount moves it back). */
  advance(ms: Millis): Millis {
    return this.#move(this.#offset + ms);
  }

  /** Sets the clock to an absolute time; it keeps running from there. */
  set(at: Millis): Millis {
    return this.#move(at - Date.now());
  }

  /** Back to real time. */
  reset(): Millis {
    return this.#move(0);
  }

  /** Called after every jump with the new and the previous time. Returns an unsubscribe. */
  onChange(listener: ClockListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #move(offset: Millis): Millis {
    const previous = this.now();
    this.#offset = offset;
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
