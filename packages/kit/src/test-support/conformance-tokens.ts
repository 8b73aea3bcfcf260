// Conformance checks of the token store and its renewal lease (TokenStore).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { HttpTransport } from "../http.js";
import type { StoredTokens } from "../shop-ports.js";
import { TokenManager } from "../tokens.js";
import { atOnce, count } from "./conformance-helpers.js";
import { CONCURRENT_COPIES, type ConformanceHost } from "./conformance-host.js";
import { createFakeDeps, reply } from "./fake-transport.js";

// ---------------------------------------------------------------------------------------------
// The token store

/** Yields to other tasks instead of waiting on the clock. */
export const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A token endpoint that answers every grant with a new access token, counting grants. */
export function tokenEndpoint(prefix: string) {
  let grants = 0;
  const fake = createFakeDeps(async () => {
    grants += 1;
    const grant = grants;
    // A few turns of the event loop before the answer, as a real endpoint takes a round trip:
    // renewers that all held the lease at once would all have asked before any one saved.
    for (let i = 0; i < 5; i++) await yieldTurn();
    return reply(200, {
      access_token: `${prefix}-access-${grant}`,
      refresh_token: `${prefix}-refresh-${grant}`,
      user_id: `${prefix}-user`,
      merchant_id: "merchant-1",
      expires_in: 3600,
      scope: "core payments valuations updates",
    });
  });
  return { transport: new HttpTransport("http://service.test", fake.deps), grants: () => grants };
}

export const credentials = {
  clientId: "client",
  clientSecret: "secret",
  username: "user",
  password: "password",
};

export async function tokensSealed(host: ConformanceHost) {
  const prefix = `raw${randomUUID().replace(/-/g, "")}`;
  const endpoint = tokenEndpoint(prefix);
  const manager = new TokenManager({
    credentials,
    transport: endpoint.transport,
    store: host.tokens,
  });
  const tokens = await manager.getTokens();
  const persisted = await host.persistedTokenText();
  expect(persisted.length, "persistedTokenText shows what the store wrote").toBeGreaterThan(0);
  for (const [field, raw] of [
    ["access token", tokens.accessToken],
    ["refresh token", tokens.refreshToken],
    ["user id", tokens.userId],
  ] as const) {
    expect(persisted.includes(raw), `the raw ${field} is in what the store persists`).toBe(false);
  }
  expect(await host.tokens.load(), "load opens what save sealed").toEqual(tokens);
}

export async function renewalLease(host: ConformanceHost) {
  const { tokens } = host;
  const won = await atOnce(CONCURRENT_COPIES, (i) =>
    tokens.acquireRenewalLease(`holder-${i}`, 30_000),
  );
  expect(count(won, true), "exactly one holder").toBe(1);
  const holder = `holder-${won.indexOf(true)}`;
  const other = holder === "holder-0" ? "holder-1" : "holder-0";
  expect(await tokens.acquireRenewalLease(holder, 30_000), "its holder retakes it").toBe(true);
  expect(await tokens.acquireRenewalLease(other, 30_000)).toBe(false);
  await tokens.releaseRenewalLease(other);
  expect(await tokens.acquireRenewalLease(other, 30_000), "not released by another").toBe(false);
  await tokens.releaseRenewalLease(holder);
  expect(await tokens.acquireRenewalLease(other, 30_000), "free once released").toBe(true);
  await tokens.releaseRenewalLease(other);
  // A lease of no time has expired at once: its holder died, the next one takes it.
  expect(await tokens.acquireRenewalLease("dying", 0)).toBe(true);
  expect(await tokens.acquireRenewalLease("next", 30_000), "free once expired").toBe(true);
}

export async function oneGrantForManyRenewers(host: ConformanceHost) {
  const MANAGERS = 20;
  const expired: StoredTokens = {
    accessToken: "expired-access",
    refreshToken: "expired-refresh",
    userId: "user",
    merchantId: "merchant-1",
    scope: "core payments valuations updates",
    accessExpiresAt: new Date(Date.now() - 60_000),
  };
  await host.tokens.save(expired);
  const endpoint = tokenEndpoint("shared");
  const tokens = await atOnce(MANAGERS, (i) =>
    new TokenManager({
      credentials,
      transport: endpoint.transport,
      store: host.tokens,
      holder: `instance-${i}`,
      sleep: yieldTurn,
    }).getAccessToken(),
  );
  expect(endpoint.grants(), "token grants").toBe(1);
  expect(new Set(tokens), "every manager has the one new token").toEqual(
    new Set(["shared-access-1"]),
  );
}
