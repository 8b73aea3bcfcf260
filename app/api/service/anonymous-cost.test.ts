import { createRequire } from "node:module";
import { beforeAll, describe, it } from "vitest";

// What one cookieless request costs, part by part, for docs/security.md (Bounded storage): CPU
// per call (process.cpuUsage: this thread and libuv's pool, so Web Crypto's work counts) and SQL
// statements per call (counted at better-sqlite3's prepare, which Prisma's adapter calls once per
// statement). Run on demand, not in the gate:
//   ANONYMOUS_COST=1 npx vitest run app/api/service/anonymous-cost.test.ts
// (CALLS=n per part, default 500). Everything is imported inside, so the gate's skip costs nothing.

const CALLS = Number(process.env.CALLS ?? 500);

describe.runIf(process.env.ANONYMOUS_COST === "1")("what a cookieless request costs", () => {
  let statements = 0;
  beforeAll(() => {
    // The adapter's own copy of better-sqlite3 (its dependency, not the shop's).
    const adapter = createRequire(import.meta.url).resolve("@prisma/adapter-better-sqlite3");
    const Database = createRequire(adapter)("better-sqlite3");
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function counted(...args: unknown[]) {
      statements += 1;
      return prepare.apply(this, args);
    };
  });

  async function measure(part: string, work: (i: number) => Promise<unknown>) {
    for (let i = 0; i < 50; i++) await work(i);
    statements = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await work(i);
    const used = process.cpuUsage(cpu);
    const ms = (used.user + used.system) / 1000 / CALLS;
    const system = used.system / 1000 / CALLS;
    console.log(
      `${part}: ${ms.toFixed(3)} ms CPU (${system.toFixed(3)} system), ${(statements / CALLS).toFixed(2)} statements`,
    );
  }

  it("per part, on SQLite", async () => {
    const support = await import("@/test-support/test-shop");
    const { createTestShop } = support;
    const { shopSessionIdentity } = await import("@/lib/service-adapter/request-session");
    const { serviceAdapter } = await import("@/lib/service-adapter/service");
    const { addToCart, dropSeenTradeInsPastCap } = await import("@/lib/shop/cart");
    const { POST: tradeInSeen } = await import("./trade-in-seen/route");
    const { POST: pendingOrder } = await import("./pending-order/route");
    const { POST: checkout } = await import("./checkout/route");
    const { tryPromotionCode } = await import("@/lib/shop/promotion-attempts");
    const { throttledLogin } = await import("@/lib/auth/login-throttle");
    const shop = await createTestShop({
      ANONYMOUS_CARTS_MAX: "100",
      LOGIN_THROTTLE_MAX_ROWS: "200",
    });
    const category = await shop.db.category.create({ data: { slug: "cost", name: "Cost" } });
    const product = await shop.db.product.create({
      data: { slug: "cost", name: "Cost", description: "", image: "", categoryId: category.id },
    });
    const cookie = () => support.sessionCookie(support.newSession());
    const post = (path: string, body: unknown, sealed: string) =>
      support.jsonRequest(`http://shop.test/api/service/${path}`, body, sealed);
    try {
      const cookies: string[] = [];
      await measure("sealing a session cookie (the proxy; the test)", async () => {
        cookies.push(await cookie());
      });
      await measure("the route reading it (sealed just now: from the process's memory)", (i) =>
        shopSessionIdentity.ofRequest(post("x", {}, cookies[i % cookies.length] as string)),
      );
      // A cookie this process has not seen in the last minute is unsealed (PBKDF2 pair, HMAC,
      // AES): sealed here without being remembered.
      const { sealData } = await import("iron-session");
      const unseen = await Promise.all(
        Array.from({ length: CALLS + 50 }, async () => {
          const sealed = await sealData(support.newSession(), {
            password: support.TEST_ENV.SESSION_SECRET,
            ttl: 3600,
          });
          return `shop_session=${sealed}`;
        }),
      );
      await measure("opening a cookie not seen lately (unsealing it)", (i) =>
        shopSessionIdentity.ofRequest(post("x", {}, unseen[i] as string)),
      );
      await measure("the seen trade-in's write", (i) =>
        serviceAdapter().noteTradeInSeen(support.newSession().sessionId, `t${i}`),
      );
      await measure("the seen trade-ins' cap", () => dropSeenTradeInsPastCap());
      await measure("trade-in-seen, cookie sealed", async (i) =>
        tradeInSeen(post("trade-in-seen", { tradein_id: `t${i}` }, await cookie())),
      );
      await measure("pending-order, cookie sealed", async () =>
        pendingOrder(post("pending-order", support.CHECKOUT, await cookie())),
      );
      await measure("service checkout, cookie sealed (no cart)", async () =>
        checkout(post("checkout", support.CHECKOUT, await cookie())),
      );
      // A new address each time (TRUSTED_PROXY_HOPS=0 lets a client write its own), past the
      // throttle's cap of rows: what a flood of them costs once the table is full.
      const address = (i: number) => `198.18.${(i >> 8) & 255}.${i & 255}`;
      await measure("promotion code, new session and address (no cart)", (i) =>
        tryPromotionCode(support.newSession().sessionId, address(i), "NOSUCH1"),
      );
      await measure("failed login, new email and address", (i) =>
        throttledLogin("shopper", `flood${i}@example.com`, address(i), async () => null),
      );
      await measure("add-to-cart of a new session", () =>
        addToCart({
          sessionId: support.newSession().sessionId,
          currency: "EUR",
          productId: product.id,
          quantity: 1,
        }),
      );
      await measure("a raw SELECT 1", () => shop.db.$queryRaw`SELECT 1`);
      await measure("a model count", () => shop.db.cart.count({ where: { customerId: null } }));
    } finally {
      await shop.cleanup();
    }
  }, 600_000);
});
