import { randomUUID } from "node:crypto";
import { db } from "@sls/lib/db";
import { guests } from "@sls/lib/guest";
import { cardPayments } from "@sls/lib/schema";
import { z } from "zod";

// The card stand-in's "processor" (no network beyond the shop): what a card processor's servers
// do when its browser SDK confirms a payment. It records each confirmation, so a test sees
// whether the SDK was called at all, and the shop places a card order only against one
// (app/actions.ts). A real processor's SDK talks to the processor; this one posts here.
export const dynamic = "force-dynamic";

const body = z.strictObject({
  amount: z.int().positive().max(100_000_000),
  currency: z.literal("EUR"),
});

export async function POST(request: Request): Promise<Response> {
  const guest = guests().read(request);
  if (!guest) return Response.json({ error: "no session" }, { status: 401 });
  const text = await request.text();
  if (text.length > 1024) return Response.json({ error: "too large" }, { status: 413 });
  let parsed: z.infer<typeof body>;
  try {
    parsed = body.parse(JSON.parse(text));
  } catch {
    return Response.json({ error: "invalid" }, { status: 400 });
  }
  const id = `cp_${randomUUID()}`;
  await db()
    .insert(cardPayments)
    .values({ id, sessionId: guest.sessionId, ...parsed });
  return Response.json({ paymentId: id });
}
