// The framework's floor for `npm run bench:webhook`: a route of the same build that does nothing,
// so the webhook's figures can be read against it. It sits beside the webhook so that both skip
// the session proxy alike (proxy.ts). Off unless SERVICE_BENCH_FLOOR=1 (set only by
// the benchmark's own server), so a deployed shop answers 404 here like for any unknown path.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  if (process.env.SERVICE_BENCH_FLOOR !== "1") return new Response(null, { status: 404 });
  // The body is read like the webhook reads it, so both pay for receiving the same bytes.
  await request.arrayBuffer();
  return new Response(null, { status: 200 });
}
