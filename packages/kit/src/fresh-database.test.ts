// freshDatabasePerCheck (the /testing entry): one database per host, disposed of when the check
// ends, also when wiring the host or the host's own close fails.
import { describe, expect, it } from "vitest";
import type { ConformanceHost } from "./test-support/shop-ports-conformance.js";
import { freshDatabasePerCheck, oneDatabasePerSuite } from "./testing.js";

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

describe("oneDatabasePerSuite", () => {
  const shared = (events: string[]) => {
    let opened = 0;
    return {
      open: () => {
        opened += 1;
        events.push(`open ${opened}`);
        return { n: opened };
      },
      empty: (db: { n: number }) => {
        events.push(`empty ${db.n}`);
      },
      dispose: (db: { n: number }) => {
        events.push(`dispose ${db.n}`);
      },
    };
  };

  it("opens one database for the suite, empties it before every check after the first, once the previous check's host has closed, and disposes of it at the end", async () => {
    const events: string[] = [];
    let hosts = 0;
    const make = oneDatabasePerSuite({
      ...shared(events),
      host: (db) => {
        hosts += 1;
        events.push(`host ${hosts} on ${db.n}`);
        return hostOver({ n: hosts }, events);
      },
    });
    for (let check = 0; check < 3; check++) {
      const host = await make();
      await host.close?.();
    }
    await make.dispose();
    expect(events).toEqual([
      "open 1",
      "host 1 on 1",
      "close 1",
      "empty 1",
      "host 2 on 1",
      "close 2",
      "empty 1",
      "host 3 on 1",
      "close 3",
      "dispose 1",
    ]);
  });

  it("lets checks started at once take turns: the next one waits for the previous host's close, also when wiring a host throws", async () => {
    const events: string[] = [];
    let hosts = 0;
    const make = oneDatabasePerSuite({
      ...shared(events),
      host: () => {
        hosts += 1;
        if (hosts === 2) throw new Error("wiring failed");
        return hostOver({ n: hosts }, events);
      },
    });
    const [first, second, third] = [make(), make(), make()];
    const host1 = await first;
    // The others wait for the first host's close before they empty the database.
    await Promise.resolve();
    expect(events).toEqual(["open 1"]);
    await host1.close?.();
    await expect(second).rejects.toThrow("wiring failed");
    const host3 = await third;
    await host3.close?.();
    await make.dispose();
    expect(events).toEqual(["open 1", "close 1", "empty 1", "empty 1", "close 3", "dispose 1"]);
  });

  it("opens the database ahead when asked (runShopPortsConformance's beforeAll), once, and the first check does not empty it", async () => {
    const events: string[] = [];
    const make = oneDatabasePerSuite({ ...shared(events), host: (db) => hostOver(db, events) });
    await make.open();
    await make.open();
    expect(events, "made before any check").toEqual(["open 1"]);
    await (await make()).close?.();
    await (await make()).close?.();
    await make.dispose();
    expect(events).toEqual(["open 1", "close 1", "empty 1", "close 1", "dispose 1"]);
  });

  it("disposes of nothing when no check ran", async () => {
    const events: string[] = [];
    const make = oneDatabasePerSuite({ ...shared(events), host: (db) => hostOver(db, events) });
    await make.dispose();
    expect(events).toEqual([]);
  });
});
