import {
  errorJson,
  inspectorEnabled,
  inspectorFeed,
  inspectorOwner,
  internalError,
  json,
} from "@service-integration/kit/server";
import { shopSessionIdentity } from "@/lib/service-adapter/request-session";
import { serviceAdapter } from "@/lib/service-adapter/service";

// GET /api/service/inspector: the integration inspector's server-side entries for the caller's
// own session (docs/decisions/inspector-feed.md). On only with INTEGRATION_INSPECTOR=on; otherwise 404 like any path.
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  if (!inspectorEnabled()) return errorJson(404, "not_found", "The inspector is off.");
  try {
    const session = await shopSessionIdentity.ofRequest(request);
    if (!session) return json({ owner: null, entries: [] });
    return json({
      owner: inspectorOwner(session.sessionId),
      entries: await inspectorFeed(serviceAdapter().inspector, session.sessionId),
    });
  } catch (error) {
    return internalError("inspector", error);
  }
}
