import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { answers } from "./answers.mjs";

// The storefront stacks' readiness poll (scripts/e2e-stacks.mjs): a request that never completes
// must end at its deadline, so the poll asks again instead of waiting on it for ever.

const servers: Server[] = [];
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => {
  for (const server of servers) server.closeAllConnections();
  for (const server of servers) server.close();
});
async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Asks `url` with a 5 s deadline on the poll's own timer, moves that timer past the deadline
 *  once the request reported `stage` (a wait polled on real time, which the fake timers leave
 *  alone), and returns the answer and every stage reported. */
async function atDeadlineAfter(url: string, stage: string) {
  const stages: string[] = [];
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const answered = answers(url, { timeoutMs: 5_000, onStage: (s) => stages.push(s) });
  while (!stages.includes(stage)) await new Promise((resolve) => setImmediate(resolve));
  vi.advanceTimersByTime(5_000);
  return { answered: await answered, stages };
}

describe("answers", () => {
  it("is true for a whole page, false for a server error or a refused connection", async () => {
    const page = await serve((_req, res) => res.end("<html></html>"));
    const broken = await serve((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const refused = await serve(() => {});
    const closed = servers.pop();
    await new Promise((resolve) => closed?.close(resolve));
    expect(await answers(page)).toBe(true);
    expect(await answers(broken)).toBe(false);
    expect(await answers(refused)).toBe(false);
  });

  // The deadline is the poll's own timer, moved by hand once the request got as far as the test
  // says: how long connecting takes on a loaded machine never decides the outcome.
  it("ends at its deadline when the page's body never ends, saying how far it got", async () => {
    // Headers at once, then part of the body, then nothing: a first page that stalls.
    const stalled = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html>");
    });
    const { answered, stages } = await atDeadlineAfter(stalled, "status 200, reading its body");
    expect(answered).toBe(false);
    expect(stages).toEqual([
      "connecting",
      "connected, no answer yet",
      "status 200, reading its body",
      "no whole answer within 5000 ms",
    ]);
  });

  it("ends at its deadline when the server accepts but never answers", async () => {
    const silent = await serve(() => {});
    const { answered, stages } = await atDeadlineAfter(silent, "connected, no answer yet");
    expect(answered).toBe(false);
    expect(stages).toEqual([
      "connecting",
      "connected, no answer yet",
      "no whole answer within 5000 ms",
    ]);
  });
});
