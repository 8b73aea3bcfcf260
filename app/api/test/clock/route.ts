import {
  errorJson,
  internalError,
  json,
  readJsonBody,
  retryDueRegistrations,
} from "@service-integration/kit/server";
import { z } from "zod";
import { tradeInDeps } from "@/lib/service-adapter/service";
import {
  advanceShopClock,
  freezeShopClock,
  TEST_CLOCK_BUILD,
} from "@/lib/service-adapter/shop-clock";

// POST /api/test/clock, in a build made for the browser suite only (SHOP_TEST_CLOCK=1 at
// `next build`; lib/service-adapter/shop-clock.ts): moves the shop's clock forward and runs the
// trade-in registration retry job once at the new time, so a journey follows a Retry-After
// without waiting for it; `freeze` stops the clock first (or lets it run again). Any other build answers 404, as if the route did not exist.
export const dynamic = "force-dynamic";

const bodySchema = z.strictObject({
  advance_seconds: z
    .int()
    .min(0)
    .max(7 * 24 * 3600),
  freeze: z.boolean().optional(),
});

export async function POST(request: Request): Promise<Response> {
  if (!TEST_CLOCK_BUILD) return errorJson(404, "not_found", "Not found.");
  try {
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const input = bodySchema.safeParse(body.value);
    if (!input.success) {
      return errorJson(
        400,
        "bad_request",
        "advance_seconds: a whole number of seconds; freeze: true or false, if given.",
      );
    }
    if (input.data.freeze !== undefined) freezeShopClock(input.data.freeze);
    const now = advanceShopClock(input.data.advance_seconds * 1000);
    const job = await retryDueRegistrations(tradeInDeps());
    return json({ now: now.toISOString(), retry_job: job });
  } catch (error) {
    return internalError("test clock", error);
  }
}
