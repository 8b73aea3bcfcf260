import { describe, expect, it } from "vitest";
import * as here from "./errors.js";
import { SessionLookupError } from "./session-lookup.js";

// Next can load the kit twice in one process (instrumentation vs routes); errors made by
// one copy must pass `instanceof` in the other (errors.ts, SERVICE_ERROR_KIND).
describe("service errors across module copies", () => {
  it("are recognised by a second copy of the module, by kind", async () => {
    // A query string makes Vite load a second, separate instance of the module.
    const second = "./errors?second-copy";
    const other = (await import(/* @vite-ignore */ second)) as typeof here;
    expect(other.ServiceApiError).not.toBe(here.ServiceApiError);
    const error = new other.ServiceApiError({ status: 503, method: "POST", path: "/x" });
    expect(error instanceof here.ServiceApiError).toBe(true);
    expect(error instanceof here.ServiceError).toBe(true);
    expect(error instanceof here.ServiceTimeoutError).toBe(false);
    const lookup = new SessionLookupError(["a"]);
    expect(lookup instanceof other.ServiceError).toBe(true);
    expect(lookup instanceof other.ServiceApiError).toBe(false);
    expect(new Error("x") instanceof here.ServiceError).toBe(false);
    expect((null as unknown as object) instanceof here.ServiceError).toBe(false);
  });
});
