import { describe, expect, it } from "vitest";
import { ServiceApiError } from "./errors.js";
import { HttpTransport } from "./http.js";
import type { StoredTokens } from "./shop-ports.js";
import {
  createFakeDeps,
  type FakeHandler,
  type RecordedCall,
  reply,
} from "./test-support/fake-transport.js";
import { MemoryTokenStore } from "./test-support/memory-token-store.js";
import { REQUESTED_SCOPE, TokenManager } from "./tokens.js";

const BASE = "http://service.test";
const credentials = {
  clientId: "demo-client",
  clientSecret: "demo-client-secret",
  username: "merchant-admin",
  password: "merchant-password",
};

function form(call: RecordedCall) {
  return Object.fromEntries(new URLSearchParams(call.body ?? ""));
}

/** A token endpoint issuing access-N / refresh-N, plus an API answering by a callback. */
function setup(options: {
  store?: MemoryTokenStore;
  token?: (call: RecordedCall) => ReturnType<FakeHandler> | undefined;
  api?: FakeHandler;
}) {
  let issued = 0;
  const grants: string[] = [];
  const fake = createFakeDeps(async (call, index) => {
    if (call.url === `${BASE}/oauth2/token/`) {
      grants.push(form(call).grant_type ?? "?");
      const custom = options.token?.(call);
      if (custom) return custom;
      issued++;
      return reply(200, {
        access_token: `access-${issued}`,
        refresh_token: `refresh-${issued}`,
        user_id: "u-1",
        merchant_id: "m-1",
      });
    }
    return options.api ? options.api(call, index) : reply(200, {});
  });
  const store = options.store ?? new MemoryTokenStore();
  const transport = new HttpTransport(BASE, fake.deps);
  const manager = new TokenManager({ credentials, transport, store, now: fake.deps.now });
  return { ...fake, store, transport, manager, grants };
}

const stored = (overrides: Partial<StoredTokens> = {}): StoredTokens => ({
  accessToken: "old-access",
  refreshToken: "old-refresh",
  userId: "u-1",
  merchantId: "m-1",
  scope: REQUESTED_SCOPE,
  accessExpiresAt: new Date(Date.UTC(2026, 0, 1, 13, 0, 0)),
  ...overrides,
});

describe("password grant", () => {
  it("posts Basic credentials and the form of the contract to /oauth2/token/", async () => {
    const { manager, calls, store } = setup({});
    expect(await manager.getAccessToken()).toBe("access-1");
    const [call] = calls;
    expect(call?.url).toBe(`${BASE}/oauth2/token/`);
    expect(call?.method).toBe("POST");
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from("demo-client:demo-client-secret").toString("base64")}`,
    );
    expect(call?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(call && form(call)).toEqual({
      grant_type: "password",
      username: "merchant-admin",
      password: "merchant-password",
      scope: "core payments valuations updates",
    });
    // Stored with a client-side expiry of 1 hour (no expires_in in the answer).
    expect((await store.load())?.accessExpiresAt.toISOString()).toBe("2026-01-01T13:00:00.000Z");
  });

  it("uses expires_in when the answer has it", async () => {
    const { manager, store } = setup({
      token: () =>
        reply(200, {
          access_token: "a",
          refresh_token: "r",
          user_id: 7,
          merchant_id: "m",
          expires_in: 600,
        }),
    });
    await manager.getAccessToken();
    const tokens = await store.load();
    expect(tokens?.accessExpiresAt.toISOString()).toBe("2026-01-01T12:10:00.000Z");
    expect(tokens?.userId).toBe("7");
  });

  it("exposes user_id and merchant_id for the webhook secret", async () => {
    const { manager } = setup({});
    expect(await manager.getIdentity()).toEqual({ userId: "u-1", merchantId: "m-1" });
  });

  it("gives the stored identity without renewing an expired token", async () => {
    const { manager, calls, clock } = setup({
      store: new MemoryTokenStore(stored({ userId: "u-9", merchantId: "m-9" })),
    });
    clock.now = Date.UTC(2026, 0, 2);
    expect(await manager.getIdentity()).toEqual({ userId: "u-9", merchantId: "m-9" });
    expect(calls).toHaveLength(0);
  });

  it("falls back to the contract's login scopes when updates is not granted", async () => {
    const { manager, calls, store } = setup({
      token: (call) =>
        form(call).scope?.includes("updates")
          ? reply(400, { error: "invalid_scope", error_description: "updates not allowed" })
          : undefined,
    });
    expect(await manager.getAccessToken()).toBe("access-1");
    expect(calls.map((c) => form(c).scope)).toEqual([
      "core payments valuations updates",
      "core payments valuations",
    ]);
    expect((await store.load())?.scope).toBe("core payments valuations");
    expect(await manager.hasScope("updates")).toBe(false);
    expect(await manager.hasScope("core")).toBe(true);
  });

  it("surfaces a wrong password as a typed error", async () => {
    const { manager } = setup({
      token: () => reply(400, { error: "invalid_grant", error_description: "Bad credentials" }),
    });
    await expect(manager.getAccessToken()).rejects.toMatchObject({
      name: "ServiceApiError",
      status: 400,
      error: "invalid_grant",
    });
  });
});

describe("expiry", () => {
  it("reuses a stored token that is more than 5 minutes from expiry", async () => {
    const { manager, calls } = setup({ store: new MemoryTokenStore(stored()) });
    expect(await manager.getAccessToken()).toBe("old-access");
    expect(calls).toHaveLength(0);
  });

  it("refreshes early, within 5 minutes of expiry", async () => {
    const { manager, calls, clock, grants } = setup({ store: new MemoryTokenStore(stored()) });
    clock.now = Date.UTC(2026, 0, 1, 12, 55, 1);
    expect(await manager.getAccessToken()).toBe("access-1");
    expect(grants).toEqual(["refresh_token"]);
    expect(calls[0] && form(calls[0])).toEqual({
      grant_type: "refresh_token",
      refresh_token: "old-refresh",
    });
  });

  it("keeps the previous refresh token and ids when a refresh answer leaves them out", async () => {
    const { manager, clock, store } = setup({
      store: new MemoryTokenStore(stored()),
      token: () => reply(200, { access_token: "fresh" }),
    });
    clock.now = Date.UTC(2026, 0, 1, 14, 0, 0);
    await manager.getAccessToken();
    expect(await store.load()).toMatchObject({
      accessToken: "fresh",
      refreshToken: "old-refresh",
      userId: "u-1",
      merchantId: "m-1",
    });
  });
});

describe("refresh failure", () => {
  it("logs in with the password when the refresh token expired (401 invalid_grant)", async () => {
    const { manager, clock, grants } = setup({
      store: new MemoryTokenStore(stored()),
      token: (call) =>
        form(call).grant_type === "refresh_token"
          ? reply(401, { error: "invalid_grant", error_description: "Refresh token expired" })
          : undefined,
    });
    clock.now = Date.UTC(2026, 0, 1, 14, 0, 0);
    expect(await manager.getAccessToken()).toBe("access-1");
    expect(grants).toEqual(["refresh_token", "password"]);
  });

  it("does not log in again when the refresh failed for a server reason", async () => {
    const { manager, clock, grants } = setup({
      store: new MemoryTokenStore(stored()),
      token: () => reply(500, { error: "internal_server_error" }),
    });
    clock.now = Date.UTC(2026, 0, 1, 14, 0, 0);
    await expect(manager.getAccessToken()).rejects.toBeInstanceOf(ServiceApiError);
    expect(grants).toEqual(["refresh_token"]);
  });
});

describe("single-flight", () => {
  it("shares one login among concurrent callers", async () => {
    const { manager, grants } = setup({});
    const tokens = await Promise.all(Array.from({ length: 20 }, () => manager.getAccessToken()));
    expect(new Set(tokens)).toEqual(new Set(["access-1"]));
    expect(grants).toEqual(["password"]);
  });

  it("shares one refresh among concurrent callers and concurrent 401s", async () => {
    const { manager, grants, transport } = setup({
      store: new MemoryTokenStore(stored()),
      api: (call) =>
        call.headers.authorization === "Bearer old-access" ? reply(401) : reply(200, { ok: 1 }),
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => manager.send(transport, { method: "GET", path: "/x/" })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(grants).toEqual(["refresh_token"]);
  });

  it("lets a second instance reuse the tokens the first saved", async () => {
    const first = setup({});
    await first.manager.getAccessToken();
    const second = setup({ store: first.store });
    expect(await second.manager.getAccessToken()).toBe("access-1");
    expect(second.grants).toEqual([]);
  });
});

describe("401 on an API call", () => {
  it("refreshes once and retries once with the new token", async () => {
    const { manager, transport, calls, grants } = setup({
      store: new MemoryTokenStore(stored()),
      api: (call) =>
        call.headers.authorization === "Bearer old-access" ? reply(401) : reply(200, { ok: 1 }),
    });
    const answer = await manager.send(transport, { method: "POST", path: "/register-purchase" });
    expect(answer.status).toBe(200);
    expect(grants).toEqual(["refresh_token"]);
    expect(calls.map((c) => c.headers.authorization)).toEqual([
      "Bearer old-access",
      expect.stringMatching(/^Basic /),
      "Bearer access-1",
    ]);
  });

  it("returns the second 401 instead of looping", async () => {
    const { manager, transport, calls } = setup({
      store: new MemoryTokenStore(stored()),
      api: () => reply(401, { error: "unauthorized" }),
    });
    const answer = await manager.send(transport, { method: "GET", path: "/x/" });
    expect(answer.status).toBe(401);
    expect(calls.filter((c) => c.url.endsWith("/x/"))).toHaveLength(2);
  });

  it("falls back to a password login when the refresh after a 401 fails", async () => {
    const { manager, transport, grants } = setup({
      store: new MemoryTokenStore(stored()),
      token: (call) =>
        form(call).grant_type === "refresh_token"
          ? reply(401, { error: "invalid_grant" })
          : undefined,
      api: (call) =>
        call.headers.authorization === "Bearer access-1" ? reply(200, {}) : reply(401),
    });
    expect((await manager.send(transport, { method: "GET", path: "/x/" })).status).toBe(200);
    expect(grants).toEqual(["refresh_token", "password"]);
  });
});

describe("several instances sharing one store", () => {
  /** Two token managers (two shop instances) on one store; the API refuses `old-access`. */
  function twoInstances(store: MemoryTokenStore) {
    const one = setup({
      store,
      // A token answer that takes a moment, so both instances are renewing at the same time.
      token: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return reply(200, {
          access_token: "access-new",
          refresh_token: "refresh-new",
          user_id: "u-1",
          merchant_id: "m-1",
        });
      },
      api: (call) =>
        call.headers.authorization === "Bearer old-access" ? reply(401, {}) : reply(200, {}),
    });
    const other = new TokenManager({
      credentials,
      transport: one.transport,
      store,
      now: one.deps.now,
    });
    const request = { method: "GET", path: "/core/orders/" } as const;
    return {
      ...one,
      both: () =>
        Promise.all([one.manager.send(one.transport, request), other.send(one.transport, request)]),
    };
  }
  // Fresh by the shop's clock, yet refused by the service (its clock moved on, or it revoked it).
  const refused = () => stored({ accessExpiresAt: new Date(Date.UTC(2026, 0, 1, 13, 0, 0)) });

  it("a 401 both instances get at once costs one grant; the other reuses its tokens", async () => {
    const store = new MemoryTokenStore(refused());
    const { both, grants } = twoInstances(store);
    const answers = await both();
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(grants).toEqual(["refresh_token"]);
    expect((await store.load())?.accessToken).toBe("access-new");
    // The second instance found the lease taken and waited for the first one's tokens.
    expect(store.leaseCalls.filter((c) => !c.acquired).length).toBeGreaterThan(0);
  });

  it("without the lease both would renew (the test above depends on it)", async () => {
    const store = new MemoryTokenStore(refused());
    store.acquireRenewalLease = async () => true;
    const { both, grants } = twoInstances(store);
    await both();
    expect(grants.length).toBe(2);
  });
});
