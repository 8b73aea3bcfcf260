import { it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { clientAddressFrom } from "./client-address";
import { throttledLogin } from "./login-throttle";

const shop = setUpTestDb({ LOGIN_THROTTLE_MAX_ROWS: "200" });
it("bench", async () => {
  const now = new Date("2027-01-01T14:00:00Z");
  const address = (n: number) => clientAddressFrom(`198.18.${n >> 8}.${n & 255}`, 0);
  const c0 = process.cpuUsage();
  const t = performance.now();
  const marks: string[] = [];
  for (let batch = 0; batch < 100; batch++) {
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const n = batch * 100 + i;
        return throttledLogin("shopper", `wave${n}@example.com`, address(n), async () => null, now);
      }),
    );
    if (batch < 4 || batch % 20 === 19) {
      const u = process.cpuUsage(c0);
      marks.push(
        `b${batch} ${(performance.now() - t).toFixed(0)}ms cpu ${((u.user + u.system) / 1000).toFixed(0)}`,
      );
    }
  }
  console.log(marks.join("\n"), await shop.db.loginThrottle.count());
}, 120_000);
