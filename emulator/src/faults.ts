import { endpointFor } from "./http/endpoints";

// Fault injection per endpoint, in the manner of WireMock/LocalStack: a rule matches an
// endpoint (its name from http/endpoints.ts, a path prefix starting with "/", or "*"), fires
// with a probability, optionally only `count` times, and delays and/or answers a status.

export interface FaultRule {
  id: string;
  /** Endpoint name (e.g. "session"), a path prefix ("/assets/"), or "*". */
  endpoint: string;
  /** Only this method, when set. */
  method?: string;
  /** Only requests authenticated as or addressed to this merchant, when set. */
  merchant?: string;
  /** Answer this status instead of running the endpoint. Latency alone when unset. */
  status?: number;
  /** Delay before answering (or before running the endpoint when no status is set). */
  latency_ms: number;
  /** 0..1, default 1. */
  probability: number;
  /** How many more times the rule fires; null = unlimited. */
  remaining: number | null;
  /** Override the `error` code of the answer. */
  error?: string;
  error_description?: string;
  /** Retry-After (seconds) of an injected 429/503; default 60 for 429, 30 for 503. */
  retry_after_seconds?: number;
  /** The answer stalls while it is read: its status, headers and first half of its body go at
   *  once, the rest this long after on the merchant's clock (a connection that stops mid-answer). */
  body_stall_ms?: number;
  /** How many times the rule fired so far. */
  fired: number;
}

export type FaultInput = Omit<
  FaultRule,
  "id" | "fired" | "remaining" | "latency_ms" | "probability"
> & {
  latency_ms?: number;
  probability?: number;
  count?: number | null;
};

/** Small seeded PRNG so that probabilistic faults are reproducible after a reset. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Faults {
  #rules: FaultRule[] = [];
  #next = 0;
  #seed: number;
  #random: () => number;

  constructor(seed = 42) {
    this.#seed = seed;
    this.#random = mulberry32(seed);
  }

  get size(): number {
    return this.#rules.length;
  }

  list(): FaultRule[] {
    return this.#rules.map((r) => ({ ...r }));
  }

  add(input: FaultInput): FaultRule {
    const { count, ...rest } = input;
    const rule: FaultRule = {
      ...rest,
      id: `fault_${++this.#next}`,
      latency_ms: input.latency_ms ?? 0,
      probability: input.probability ?? 1,
      remaining: count ?? null,
      fired: 0,
    };
    this.#rules.push(rule);
    return { ...rule };
  }

  remove(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((r) => r.id !== id);
    return this.#rules.length !== before;
  }

  clear(): void {
    this.#rules = [];
    this.#next = 0;
    this.#random = mulberry32(this.#seed);
  }

  /** Removes the rules scoped to one merchant (its reset); global rules stay. */
  clearMerchant(merchant: string): void {
    this.#rules = this.#rules.filter((r) => r.merchant !== merchant);
  }

  /**
   * The rule that fires for this request, if any (consumes one of its `count`). `merchant` is
   * the merchant the request is authenticated as or addressed to: a rule scoped to another
   * merchant (or to one, when the request's merchant is unknown) does not fire.
   */
  match(method: string, path: string, merchant?: string): FaultRule | undefined {
    if (this.#rules.length === 0) return undefined;
    const name = endpointFor(path)?.name;
    for (const rule of this.#rules) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.merchant !== undefined && rule.merchant !== merchant) continue;
      const hit =
        rule.endpoint === "*" ||
        rule.endpoint === name ||
        (rule.endpoint.startsWith("/") && path.startsWith(rule.endpoint));
      if (!hit) continue;
      if (rule.probability < 1 && this.#random() >= rule.probability) continue;
      rule.fired++;
      if (rule.remaining !== null) {
        rule.remaining--;
        if (rule.remaining <= 0) this.#rules = this.#rules.filter((r) => r !== rule);
      }
      return rule;
    }
    return undefined;
  }
}
