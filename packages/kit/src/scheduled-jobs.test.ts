import { describe, expect, it, vi } from "vitest";
import { bearerMatches, runScheduledJob } from "./scheduled-jobs.js";

const SECRET = "s".repeat(40);
const request = (authorization: string) =>
  new Request("http://shop.test/api/service/jobs/x", { headers: { authorization } });

describe("bearerMatches", () => {
  it("accepts exactly `Bearer <secret>` and nothing near it", () => {
    expect(bearerMatches(`Bearer ${SECRET}`, SECRET)).toBe(true);
    expect(bearerMatches(null, SECRET)).toBe(false);
    expect(bearerMatches("", SECRET)).toBe(false);
    expect(bearerMatches(`bearer ${SECRET}`, SECRET)).toBe(false);
    expect(bearerMatches(`Bearer ${SECRET} `, SECRET)).toBe(false);
    expect(bearerMatches(`Bearer ${"s".repeat(39)}t`, SECRET)).toBe(false);
  });
});

describe("runScheduledJob", () => {
  it("answers a failing job with the contract's 500 and a correlation id, leaking nothing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await runScheduledJob(request(`Bearer ${SECRET}`), {
      name: "x",
      secret: SECRET,
      job: async () => {
        throw new Error("database password is hunter2");
      },
    });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error).toBe("internal_server_error");
    expect(body.error_description).toMatch(/correlation id: [0-9a-f-]{36}/);
    expect(JSON.stringify(body)).not.toContain("hunter2");
    logged.mockRestore();
  });
});
