import { runScheduledJob } from "@service-integration/kit/server";
import { getNotificationInbox } from "@/lib/service-adapter/service";

// GET or POST /api/service/jobs/notification-sweep with `Authorization: Bearer $JOBS_SECRET`: one
// sweep of the order notifications stored by the webhook and not applied yet (a stop between
// the 200 and its apply, an apply that failed), for hosts without a resident process: there the
// sweep timer of instrumentation.ts never runs, so a platform scheduler calls this instead.
// Each row is claimed in the database before it is applied, so calls at once are safe
// (docs/decisions/scheduled-jobs.md, webhook-storage.md).
export const dynamic = "force-dynamic";
export const maxDuration = 60;

function handle(request: Request): Promise<Response> {
  return runScheduledJob(request, {
    name: "notification-sweep",
    secret: process.env.JOBS_SECRET,
    job: () => getNotificationInbox().sweep(),
  });
}

export const GET = handle;
export const POST = handle;
