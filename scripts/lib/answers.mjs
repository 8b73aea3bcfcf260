// Whether a server answers: the storefront stacks' readiness poll (scripts/e2e-stacks.mjs).
// node:http with its own deadline timer that destroys the request, not fetch() with
// AbortSignal.timeout(): on this Node (20) a fetch whose timeout signal never fired stayed pending
// for minutes after the server had answered everyone else, and the poll that awaited it never
// asked again (docs/decisions/test-graph.md, "The stacks' start").
import http from "node:http";

/**
 * Resolves true once `url` gave a whole response with a status below 500, false on an error, a
 * status of 500 or more, or when `timeoutMs` passed first (the request is then destroyed).
 * `onStage` hears how far the request got, for a "still waiting" line.
 * @param {string} url
 * @param {{ timeoutMs?: number, onStage?: (stage: string) => void }} [options]
 * @returns {Promise<boolean>}
 */
export function answers(url, { timeoutMs = 5_000, onStage = () => {} } = {}) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (ok, stage) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      onStage(stage);
      request.destroy();
      resolve(ok);
    };
    onStage("connecting");
    // A plain timer, held by nothing else: it fires whatever the request is waiting for.
    const deadline = setTimeout(
      () => done(false, `no whole answer within ${timeoutMs} ms`),
      timeoutMs,
    );
    // agent: false, a connection of its own: nothing kept alive between two polls.
    const request = http.get(url, { agent: false }, (response) => {
      onStage(`status ${response.statusCode}, reading its body`);
      response.on("error", (error) => done(false, `failed: ${error.code ?? error.message}`));
      response.on("end", () => done((response.statusCode ?? 500) < 500, "done"));
      response.resume();
    });
    request.on("socket", (socket) =>
      socket.once("connect", () => onStage("connected, no answer yet")),
    );
    request.on("error", (error) => done(false, `failed: ${error.code ?? error.message}`));
  });
}
