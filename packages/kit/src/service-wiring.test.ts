import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ConnectedService,
  connectService,
  type ServiceStores,
  serviceJobRoutes,
  startJobTimer,
} from "./service-wiring.js";
import type { OrderStatusRules, StoredNotificationStore } from "./shop-ports.js";
import { MemoryTokenStore } from "./test-support/memory-token-store.js";
import type { TokenSealer } from "./token-sealing.js";

const statuses = { held: "on_hold" } as unknown as OrderStatusRules;
const stores = (sealer: TokenSealer) => ({
  sealer,
  tokens: new MemoryTokenStore(),
  servicePay: {} as ServiceStores["servicePay"],
  tradeIns: {} as ServiceStores["tradeIns"],
  shopper: {} as ServiceStores["shopper"],
});

describe("connectService", () => {
  it("reads the settings, seals with SERVICE_TOKEN_KEY, and hands each kit function its deps", () => {
    const env = {
      SERVICE_TOKEN_KEY: "a-test-token-key-of-32-characters-at-least",
      SERVICE_ORDER_CREATION: "webhook",
      SERVICE_CLIENT_ID: "client-test",
      SERVICE_CLIENT_SECRET: "client-secret-test",
      SERVICE_PASSWORD: "password-test",
    };
    const service = connectService({ stores, statuses, shopBaseUrl: "https://shop.test", env });
    expect(service.config.clientId).toBe("client-test");
    expect(service.servicePay).toEqual({
      store: service.stores.servicePay,
      statuses,
      mode: "webhook",
      shopBaseUrl: "https://shop.test",
    });
    expect(service.tradeIns.store).toBe(service.stores.tradeIns);
    expect(service.tradeIns.client).toBe(service.client);
    expect(service.shopper).toBe(service.stores.shopper);
    // The stores got a sealer made of the key: what it seals opens only with the same key.
    const sealed = service.stores.sealer.seal("accessToken", "raw-token");
    expect(sealed).not.toContain("raw-token");
    expect(service.stores.sealer.open("accessToken", sealed)).toBe("raw-token");
    const other = connectService({
      stores,
      statuses,
      shopBaseUrl: "https://shop.test",
      env: { ...env, SERVICE_TOKEN_KEY: "another-test-token-key-of-32-characters" },
    });
    expect(other.stores.sealer.open("accessToken", sealed)).toBeNull();
  });

  it("refuses to start in production with a setting missing, naming it", () => {
    expect(() =>
      connectService({
        stores,
        statuses,
        shopBaseUrl: "https://shop.test",
        env: { NODE_ENV: "production" },
      }),
    ).toThrow(/SERVICE_TOKEN_KEY/);
  });
});

describe("startJobTimer", () => {
  afterEach(() => vi.useRealTimers());
  let name = 0;
  const fresh = () => `test-job-${++name}`;

  it("runs the job every interval, never two at once, and goes on after a failure", async () => {
    vi.useFakeTimers();
    const log = vi.fn();
    let finish: () => void = () => {};
    const job = vi
      .fn<() => Promise<void>>()
      .mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)))
      .mockRejectedValueOnce(new Error("service down"))
      .mockResolvedValue(undefined);
    const jobName = fresh();
    startJobTimer(jobName, 1_000, job, log);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job).toHaveBeenCalledTimes(1);
    // The first run is still going: the next ticks start nothing.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(job).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenCalledWith(
      `[${jobName}]`,
      expect.objectContaining({ message: "service down" }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job).toHaveBeenCalledTimes(3);
  });

  it("starts one timer per name in a process, and none for an interval of 0", async () => {
    vi.useFakeTimers();
    const job = vi.fn(async () => {});
    const jobName = fresh();
    startJobTimer(jobName, 1_000, job);
    startJobTimer(jobName, 1_000, job);
    const off = vi.fn(async () => {});
    startJobTimer(fresh(), 0, off);
    startJobTimer(fresh(), Number.NaN, off);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job).toHaveBeenCalledTimes(1);
    expect(off).not.toHaveBeenCalled();
  });
});

describe("serviceJobRoutes", () => {
  const SECRET = "a-jobs-secret-of-32-characters-or-more";
  const call = (route: (r: Request) => Promise<Response>, bearer?: string) =>
    route(
      new Request("https://shop.test/api/service/jobs/x", {
        method: "POST",
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      }),
    );

  it("runs each job once per authorised call: due registrations, then unapplied notifications and guests' unpaid pending orders", async () => {
    const asked: string[] = [];
    const service = {
      tradeIns: {
        store: {
          due: async () => {
            asked.push("due");
            return [];
          },
        },
        now: () => new Date(),
      },
      servicePay: {
        statuses: { ...statuses, forServiceStatus: { pending: "awaiting_payment" } },
        mode: "webhook",
        shopBaseUrl: "https://shop.test",
      },
      stores: {
        servicePay: {
          unapplied: async () => {
            asked.push("unapplied");
            return [];
          },
          // The sweep then looks for guests' pending orders nobody paid (pruneAbandonedOrders).
          transaction: async (fn: (tx: unknown) => Promise<unknown>) =>
            fn({
              abandonedOrders: async () => {
                asked.push("abandoned");
                return [];
              },
            }),
        },
      },
    } as unknown as ConnectedService<ServiceStores & { servicePay: StoredNotificationStore }>;
    let secret: string | undefined;
    const routes = serviceJobRoutes(
      () => service,
      () => secret,
    );
    expect((await call(routes.tradeInRetry, SECRET)).status).toBe(403);
    secret = SECRET;
    expect((await call(routes.notificationSweep, "wrong")).status).toBe(401);
    expect(asked).toEqual([]);
    const retry = await call(routes.tradeInRetry, SECRET);
    expect(await retry.json()).toMatchObject({ job: "trade-in-retry", result: { due: 0 } });
    const sweep = await call(routes.notificationSweep, SECRET);
    expect(await sweep.json()).toEqual({
      job: "notification-sweep",
      result: { applied: 0, pruned: 0 },
    });
    expect(asked).toEqual(["due", "unapplied", "abandoned"]);
  });
});
