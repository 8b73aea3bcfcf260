import "server-only";
import type { SessionIdentity } from "@service-integration/kit";
import { sessionOfRequest } from "../session";

/** The kit's SessionIdentity over the shop's sealed cookie: read only, null without one. */
export const miniSessionIdentity: SessionIdentity = {
  async ofRequest(request) {
    const session = sessionOfRequest(request);
    return session
      ? { sessionId: session.sessionId, salt: session.salt, customerId: session.customerId }
      : null;
  },
};
