import { beforeEach, describe, expect, it } from "vitest";
import {
  clearIntegrationLog,
  expectedAnswer,
  inspectorKey,
  integrationObserver,
  readIntegrationEntries,
  recordIntegrationEntry,
  redactPath,
  withInspectorSession,
} from "./integration-log.js";

const SESSION = "a".repeat(64);
const HASH = "3f2a9c".padEnd(64, "0");

beforeEach(() => clearIntegrationLog());

describe("integration log", () => {
  it("keys entries by a digest, never the session id", () => {
    const key = inspectorKey(SESSION);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain(SESSION);
    expect(inspectorKey("b".repeat(64))).not.toBe(key);
  });

  it("records observer events only inside a shopper's context, with the hash cut short", async () => {
    integrationObserver({ method: "GET", path: "/core/merchants/", attempt: 1, durationMs: 3 });
    await withInspectorSession(SESSION, async () => {
      integrationObserver({
        method: "GET",
        path: `/core/sessions/${HASH}%7C002/`,
        attempt: 2,
        durationMs: 12.4,
        status: 429,
        retryInMs: 1000,
      });
    });
    const entries = await readIntegrationEntries(inspectorKey(SESSION));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "api",
      label: "GET /core/sessions/3f2a9c00…/",
      status: 429,
      ok: false,
      durationMs: 12,
      detail: "attempt 2, retry in 1000 ms",
    });
    expect(JSON.stringify(entries)).not.toContain(HASH);
  });

  it("keeps one shopper's entries away from another's and bounds each log", async () => {
    const mine = inspectorKey(SESSION);
    for (let i = 0; i < 130; i++)
      recordIntegrationEntry(mine, { kind: "step", label: `s${i}`, ok: true });
    recordIntegrationEntry(inspectorKey("c".repeat(64)), {
      kind: "step",
      label: "other",
      ok: true,
    });
    const entries = await readIntegrationEntries(mine);
    expect(entries).toHaveLength(100);
    expect(entries[0]?.label).toBe("s30");
    expect(entries.some((e) => e.label === "other")).toBe(false);
    expect(await readIntegrationEntries(mine, entries[98]?.seq)).toHaveLength(1);
  });

  it("redacts long hex ids in paths", () => {
    expect(redactPath(`/core/sessions/${HASH}|001/`)).toBe("/core/sessions/3f2a9c00…/");
    expect(redactPath("/core/tradeinitems/ti_12/")).toBe("/core/tradeinitems/ti_12/");
  });

  it("reads token renewal and a missing session as expected steps; other errors stay failures", async () => {
    await withInspectorSession(SESSION, async () => {
      for (const event of [
        { method: "GET", path: "/core/merchants/", status: 401 },
        { method: "POST", path: "/oauth2/token/", status: 400, step: "refresh_token" },
        { method: "POST", path: "/oauth2/token/", status: 401, step: "refresh_token" },
        { method: "GET", path: `/core/sessions/${HASH}/`, status: 404 },
        { method: "POST", path: "/oauth2/token/", status: 400, step: "password" },
        { method: "POST", path: "/oauth2/token/", status: 401, step: "password" },
        { method: "GET", path: "/core/tradeinitems/ti_1/", status: 404 },
        { method: "POST", path: "/payments/register-purchase/", status: 500 },
      ]) {
        integrationObserver({ ...event, attempt: 1, durationMs: 1 });
      }
    });
    const entries = await readIntegrationEntries(inspectorKey(SESSION));
    expect(entries.map((e) => [e.status, e.ok, Boolean(e.expected)])).toEqual([
      [401, true, true],
      [400, true, true],
      [401, true, true],
      [404, true, true],
      [400, false, false],
      [401, false, false],
      [404, false, false],
      [500, false, false],
    ]);
    expect(entries[1]?.expected).toContain("logs in again");
    expect(entries[3]?.expected).toContain("no trade-in");
    expect(
      expectedAnswer({ method: "GET", path: "/core/sessions/x/", status: 200 }),
    ).toBeUndefined();
  });
});
