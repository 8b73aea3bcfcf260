import { jobRoutes } from "@sls/lib/service/wiring";

// A scheduler's call (GET from Vercel Cron, or POST), with Authorization: Bearer $JOBS_SECRET.
export const dynamic = "force-dynamic";
export const maxDuration = 60;
export const GET = jobRoutes.notificationSweep;
export const POST = jobRoutes.notificationSweep;
