import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { errorJson, internalError, json } from "./route-responses.js";

/**
 * A background job run by a request instead of a resident timer: serverless hosting runs no
 * process between requests, so a platform scheduler (Vercel Cron, Cloud Scheduler, a crontab
 * with curl) calls the job's route on a schedule (docs/decisions/scheduled-jobs.md). The route
 * is protected by a shared secret from the environment, sent as `Authorization: Bearer <secret>`
 * (the form Vercel Cron sends its CRON_SECRET in). Without a secret the route refuses: an open
 * job route would let anyone make the shop call the service at will.
 */

/** The shortest secret the route accepts; a shorter one counts as unset (the route stays off). */
export const JOBS_SECRET_MIN_LENGTH = 32;

/**
 * Whether `authorization` is exactly `Bearer <secret>`. Compared in constant time over SHA-256
 * digests of both sides, so the time taken reveals neither how much of a guess was right nor
 * the secret's length.
 */
export function bearerMatches(authorization: string | null, secret: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(authorization ?? ""), digest(`Bearer ${secret}`));
}

/**
 * Answers a scheduler's call of a job route: 403 `forbidden` while the secret is unset (or too
 * short), 401 `unauthorized` for a missing or wrong bearer (nothing run), else runs `job` once
 * and answers 200 `{ job, result }`. A job that throws is a 500 with a correlation id, as every
 * route (contract, Errors). Several calls at once are safe: the job claims its rows in the
 * database (card-trade-in.ts, retryDueRegistrations).
 */
export async function runScheduledJob<T>(
  request: Request,
  params: { name: string; secret: string | undefined; job: () => Promise<T> },
): Promise<Response> {
  const secret = params.secret?.trim() ?? "";
  if (secret.length < JOBS_SECRET_MIN_LENGTH) {
    return errorJson(
      403,
      "forbidden",
      `Scheduled jobs are off: set JOBS_SECRET (${JOBS_SECRET_MIN_LENGTH} characters or more) to run them by request.`,
    );
  }
  if (!bearerMatches(request.headers.get("authorization"), secret)) {
    const response = errorJson(401, "unauthorized", "Send Authorization: Bearer <JOBS_SECRET>.");
    response.headers.set("www-authenticate", 'Bearer realm="jobs"');
    return response;
  }
  try {
    return json({ job: params.name, result: await params.job() });
  } catch (error) {
    return internalError(`scheduled job ${params.name}`, error);
  }
}
