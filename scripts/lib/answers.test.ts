import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { answers } from "./answers.mjs";

// The storefront stacks' readiness poll (scripts/e2e-stacks.mjs): a request that never completes
// must end at its deadline, so the poll asks again instead of waiting on it for ever.

const servers: Server[] = [];
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

  it("ends at its deadline when the page's body never ends, saying how far it got", async () => {
    // Headers at once, then part of the body, then nothing: a first page that stalls.
    const stalled = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<html>");
    });
    const stages: string[] = [];
    expect(await answers(stalled, { timeoutMs: 100, onStage: (s) => stages.push(s) })).toBe(false);
    expect(stages).toEqual([
      "connecting",
      "connected, no answer yet",
      "status 200, reading its body",
      "no whole answer within 100 ms",
    ]);
  });

  it("ends at its deadline when the server accepts but never answers", async () => {
    const silent = await serve(() => {});
    const stages: string[] = [];
    expect(await answers(silent, { timeoutMs: 100, onStage: (s) => stages.push(s) })).toBe(false);
    expect(stages.at(-2)).toBe("connected, no answer yet");
  });
});
