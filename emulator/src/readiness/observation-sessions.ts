// What binds an observation (POST /sdk/v1/observations) to an SDK session the emulator itself
// started: POST /sdk/v1/observations/session, asked from a merchant's registered origin, hands
// the SDK a token for that merchant and origin; every observation of the page carries it and a
// sequence number of its own. An
// observation with an unknown token, another merchant's or origin's token, or a sequence number
// already used is refused, and a refused observation never reaches a verdict (passive.ts reads
// only accepted ones). Anyone can still start an SDK session from a script that writes the
// Origin header itself: the token proves the observation came through the emulator's own
// start-up for that merchant and origin, not that a browser sent it (emulator/README.md,
// "Go-live readiness").
import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../context";
import { originAllowed } from "../sdk-api/cors";

/** Tokens kept; past this the oldest are forgotten (a long run keeps the newest pages). */
export const MAX_OBSERVATION_TOKENS = 10_000;
/** Observations one SDK start-up may send (a page sends a handful: callbacks and markup). */
export const MAX_OBSERVATIONS_PER_TOKEN = 200;

export type ObservationRefusal =
  | "no_origin"
  | "foreign_origin"
  | "unknown_token"
  | "wrong_merchant"
  | "wrong_origin"
  | "replayed"
  | "too_many";

export const REFUSAL_TEXT: Record<ObservationRefusal, string> = {
  no_origin: "An observation must come from the merchant's page (no Origin header).",
  foreign_origin: "The Origin is not one the merchant registered.",
  unknown_token: "The observation token was not issued by this service's SDK start-up.",
  wrong_merchant: "The observation token was issued for another merchant.",
  wrong_origin: "The observation token was issued for another origin.",
  replayed: "This observation (token and sequence number) was already received.",
  too_many: "This SDK start-up already sent as many observations as one page may.",
};

interface Issued {
  merchantId: string;
  origin: string;
  seen: Set<number>;
}

export class ObservationSessions {
  #tokens = new Map<string, Issued>();

  constructor(private readonly ctx: EmulatorContext) {}

  /** A token for an SDK started from `origin` for `merchantId`, or null when the origin is not
   *  the merchant's (no observation of such a page can count). */
  issue(merchantId: string, origin: string | undefined): string | null {
    if (origin === undefined || !originAllowed(this.ctx, origin, merchantId)) return null;
    const token = randomBytes(24).toString("base64url");
    this.#tokens.set(token, { merchantId, origin, seen: new Set() });
    while (this.#tokens.size > MAX_OBSERVATION_TOKENS) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest === undefined) break;
      this.#tokens.delete(oldest);
    }
    return token;
  }

  /** Accepts one observation (recording its sequence number) or says why it is refused. */
  accept(input: {
    merchantId: string;
    origin: string | undefined;
    token: string;
    seq: number;
  }): { ok: true } | { ok: false; reason: ObservationRefusal } {
    const { merchantId, origin, token, seq } = input;
    if (origin === undefined) return { ok: false, reason: "no_origin" };
    if (!originAllowed(this.ctx, origin, merchantId))
      return { ok: false, reason: "foreign_origin" };
    const issued = this.#tokens.get(token);
    if (!issued) return { ok: false, reason: "unknown_token" };
    if (issued.merchantId !== merchantId) return { ok: false, reason: "wrong_merchant" };
    if (issued.origin !== origin) return { ok: false, reason: "wrong_origin" };
    if (issued.seen.has(seq)) return { ok: false, reason: "replayed" };
    if (issued.seen.size >= MAX_OBSERVATIONS_PER_TOKEN) return { ok: false, reason: "too_many" };
    issued.seen.add(seq);
    return { ok: true };
  }
}

const instances = new WeakMap<EmulatorContext, ObservationSessions>();

export function observationSessionsFor(ctx: EmulatorContext): ObservationSessions {
  let sessions = instances.get(ctx);
  if (!sessions) {
    sessions = new ObservationSessions(ctx);
    instances.set(ctx, sessions);
  }
  return sessions;
}
