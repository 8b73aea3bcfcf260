import { z } from "zod";

/** How far to move a clock, in the control API's words: any of these, added up. */
export const clockAmountFields = {
  ms: z.number().optional(),
  seconds: z.number().optional(),
  minutes: z.number().optional(),
  hours: z.number().optional(),
  days: z.number().optional(),
};

export type ClockAmount = { [K in keyof typeof clockAmountFields]?: number | undefined };

/** The amount in milliseconds. */
export function clockAmountMs(b: ClockAmount): number {
  return (
    (b.ms ?? 0) +
    (b.seconds ?? 0) * 1000 +
    (b.minutes ?? 0) * 60_000 +
    (b.hours ?? 0) * 3_600_000 +
    (b.days ?? 0) * 86_400_000
  );
}
