import { describe, expect, it } from "vitest";
import { SEED, seedForShop } from "./seed";

describe("seedForShop", () => {
  it("points every seed merchant's origins and webhooks at the given shop, nothing else", () => {
    const seed = seedForShop("http://localhost:3001/");
    for (const merchant of seed.merchants) {
      expect(merchant.allowed_origins).toEqual(["http://localhost:3001", "http://127.0.0.1:3001"]);
      expect(merchant.webhook_base).toBe("http://localhost:3001/api/service/webhooks");
    }
    expect(seed.users).toBe(SEED.users);
    expect(SEED.merchants[0]?.allowed_origins).toContain("http://localhost:3000");
  });
});
