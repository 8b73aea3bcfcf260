import type { EmulatorModule } from "../context";
import { fail, reply } from "../http/errors";
import { requireBearer } from "../http/middleware";
import { merchantView, tradeInView } from "../http/views";

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

    // The path parameter is `<hash>` or a returned session_id (`<hash>|NNN`, `|` raw or as %7C;
    // Hono decodes it; or an opaque id in the `uuid` form). The merchant's settings choose the
    // reading of the contract (README, fidelity table: Sessions).
    app.get("/core/sessions/:session_hash/", auth, (c) => {
      const queried = c.req.param("session_hash");
      const merchantId = c.get("auth").merchant_id;
      const merchant = ctx.state.getMerchant(merchantId);
      const found = ctx.state.lookupSession(merchantId, queried);
      if (merchant?.session_versioning === "regenerate" && queried.includes("|")) {
        // The contract's reading: "the caller regenerates the session hash from the new
        // session_id" and queries with that hash; the path takes a session hash only.
        return fail(
          c,
          404,
          "not_found",
          "The path takes a session hash, not a session_id: regenerate the hash from the returned session_id (the part before |) and query that.",
        );
      }
      if (found.kind === "not_found") {
        return fail(c, 404, "not_found", "Unknown or expired session hash.");
      }
      if (found.kind === "gone") {
        return fail(
          c,
          410,
          "gone",
          `Session version superseded; the current session is ${ctx.state.sessionIdOf(found.session, found.current.version)}.`,
        );
      }
      const { session, version } = found;
      const sessionId = ctx.state.sessionIdOf(session, version.version);
      // As-is reading (public docs): an answer whose session_id differs from the key asked for
      // only points at the session_id to query; the trade-in data comes from that answer.
      const pointer = merchant?.session_versioning !== "regenerate" && sessionId !== queried;
      // An expired valuation is no active trade-in: the service's clock decides, and the trade-in
      // look-up says 410 (docs/decisions/expired-valuation-in-session.md).
      const item = pointer ? undefined : ctx.state.activeTradeIn(session.merchant_id, session.hash);
      const tradeIn =
        item === undefined
          ? {}
          : {
              tradein_item:
                merchant?.tradein_item_form === "id"
                  ? item.id
                  : tradeInView(item, ctx.clock, ctx.state.itemSessionId(item)),
            };
      return reply(c, {
        session_id: sessionId,
        ...tradeIn,
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
      return reply(c, tradeInView(found.item, ctx.clock, ctx.state.itemSessionId(found.item)));
    });
  },
};
