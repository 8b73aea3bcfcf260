import type { EmulatorModule } from "../context";
import { fail, reply } from "../http/errors";
import { requireBearer } from "../http/middleware";
import { merchantView, tradeInView } from "../http/views";
import { formatSessionId } from "../state/store";

// GET /core/merchants/, /core/sessions/{session_hash}/, /core/tradeinitems/{trade_in_id}/
// (contract, Service API). Scopes other than `updates` are not enforced: the contract shows
// no scope requirement for these endpoints.

export const coreModule: EmulatorModule = {
  name: "core",
  mount(app, ctx) {
    const auth = requireBearer(ctx);

    app.get("/core/merchants/", auth, (c) => {
      const merchant = ctx.state.getMerchant(c.get("auth").merchant_id);
      return reply(c, { merchants: merchant ? [merchantView(merchant)] : [] });
    });

    // The path parameter is `<hash>` or the returned session_id `<hash>|NNN` (`|` may be
    // sent raw or as %7C; Hono decodes it).
    app.get("/core/sessions/:session_hash/", auth, (c) => {
      const queried = c.req.param("session_hash");
      const found = ctx.state.lookupSession(c.get("auth").merchant_id, queried);
      if (found.kind === "not_found") {
        return fail(c, 404, "not_found", "Unknown or expired session hash.");
      }
      if (found.kind === "gone") {
        return fail(
          c,
          410,
          "gone",
          `Session version superseded; the current session is ${formatSessionId(found.session.hash, found.current.version)}.`,
        );
      }
      const { session, version } = found;
      const item = ctx.state.activeTradeIn(session.merchant_id, session.hash);
      return reply(c, {
        session_id: formatSessionId(session.hash, version.version),
        ...(item ? { tradein_item: tradeInView(item, ctx.clock) } : {}),
        ...(version.note ? { note: version.note } : {}),
      });
    });

    app.get("/core/tradeinitems/:trade_in_id/", auth, (c) => {
      const found = ctx.state.lookupTradeIn(c.get("auth").merchant_id, c.req.param("trade_in_id"));
      if (found.kind === "not_found") return fail(c, 404, "not_found", "Unknown trade-in id.");
      if (found.kind === "gone") {
        return fail(
          c,
          410,
          "gone",
          `The valuation expired at ${ctx.clock.iso(found.item.valid_until)}; the shopper must value the device again.`,
        );
      }
      return reply(c, tradeInView(found.item, ctx.clock));
    });
  },
};
