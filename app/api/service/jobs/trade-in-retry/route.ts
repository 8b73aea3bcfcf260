import { retryDueRegistrations, runScheduledJob } from "@service-integration/kit/server";
import { tradeInDeps } from "@/lib/service-adapter/service";

// GET or POST /api/service/jobs/trade-in-retry with `Authorization: Bearer $JOBS_SECRET`: one run
// of the register-purchase retry job, for hosts without a resident process (a platform
// scheduler calls it; Vercel Cron sends GET). `next start` also runs the job on its own timer
// (instrumentation.ts). docs/decisions/scheduled-jobs.md.
export const dynamic = "force-dynamic";
// One run tries at most 20 due rows, each bounded by the client's own time limits.
export const maxDuration = 60;

function handle(request: Request): Promise<Response> {
  return runScheduledJob(request, {
    name: "trade-in-retry",
    secret: process.env.JOBS_SECRET,
    job: () => retryDueRegistrations(tradeInDeps()),
  });
}

export const GET = handle;
export const POST = handle;
