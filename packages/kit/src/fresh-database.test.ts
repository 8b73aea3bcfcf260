// freshDatabasePerCheck (the /testing entry): one database per host, disposed of when the check
// ends, also when wiring the host or the host's own close fails.
import { describe, expect, it } from "vitest";
import type { ConformanceHost } from "./test-support/shop-ports-conformance.js";
import { freshDatabasePerCheck } from "./testing.js";

function recorder() {
  const events: string[] = [];
  let opened = 0;
  return {
    events,
    open: () => {
      opened += 1;
      events.push(`open ${opened}`);
      return { n: opened };
    },
    dispose: (db: { n: number }) => {
      events.push(`dispose ${db.n}`);
    },
  };
}
const hostOver = (db: { n: number }, events: string[], closeFails = false) =>
  ({
    persistedTokenText: async () => `db ${db.n}`,
    async close() {
      events.push(`close ${db.n}`);
      if (closeFails) throw new Error("close failed");
    },
  }) as unknown as ConformanceHost;

describe("freshDatabasePerCheck", () => {
  it("gives each host its own database and disposes of it after the host's own close", async () => {
    const { events, open, dispose } = recorder();
    const make = freshDatabasePerCheck({ open, dispose, host: (db) => hostOver(db, events) });
    const first = await make();
    const second = await make();
    expect([await first.persistedTokenText(), await second.persistedTokenText()]).toEqual([
      "db 1",
      "db 2",
    ]);
    await first.close?.();
    await second.close?.();
    expect(events).toEqual(["open 1", "open 2", "close 1", "dispose 1", "close 2", "dispose 2"]);
  });

  it("disposes of the database when wiring the host throws, and when the host's close throws", async () => {
    const { events, open, dispose } = recorder();
    const failing = freshDatabasePerCheck({
      open,
      dispose,
      host: () => {
        throw new Error("wiring failed");
      },
    });
    await expect(failing()).rejects.toThrow("wiring failed");
    const closing = freshDatabasePerCheck({
      open,
      dispose,
      host: (db) => hostOver(db, events, true),
    });
    const host = await closing();
    await expect(host.close?.()).rejects.toThrow("close failed");
    expect(events).toEqual(["open 1", "dispose 1", "open 2", "close 2", "dispose 2"]);
  });
});
