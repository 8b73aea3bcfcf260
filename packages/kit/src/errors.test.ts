import { describe, expect, it } from "vitest";
import {
  extractCorrelationId,
  parseErrorBody,
  ServiceApiError,
  ServiceError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceResponseError,
  ServiceTimeoutError,
} from "./errors.js";
import { SessionLookupError } from "./session-lookup.js";

describe("parseErrorBody", () => {
  it("reads the contract's error body", () => {
    expect(parseErrorBody('{"error":"not_found","error_description":"Unknown session"}')).toEqual({
      error: "not_found",
      errorDescription: "Unknown session",
    });
  });

  it.each([
    ["empty", ""],
    ["html", "<html>Bad gateway</html>"],
    ["array", "[1,2]"],
    ["null", "null"],
    ["wrong types", '{"error":5,"error_description":{"a":1}}'],
  ])("tolerates a %s body", (_label, body) => {
    expect(parseErrorBody(body)).toEqual({});
  });
});

describe("extractCorrelationId", () => {
  it.each([
    ["Internal error, correlation id: 7f3a-19bc", "7f3a-19bc"],
    ["Something broke (correlation_id=abc123).", "abc123"],
    ["Correlation-ID 0d1e2f quote it to support", "0d1e2f"],
    ['{"correlation_id": "req_42"}', "req_42"],
  ])("finds the id in %j", (description, id) => {
    expect(extractCorrelationId(description)).toBe(id);
  });

  it("returns undefined when there is none", () => {
    expect(extractCorrelationId("Internal server error")).toBeUndefined();
  });
});

describe("ServiceApiError", () => {
  it("carries status, code, description and the correlation id of a 500", () => {
    const error = new ServiceApiError({
      status: 500,
      method: "GET",
      path: "/core/merchants/",
      error: "internal_server_error",
      errorDescription: "Oops. Correlation id: c-9",
    });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      status: 500,
      error: "internal_server_error",
      correlationId: "c-9",
    });
    expect(error.message).toContain("GET /core/merchants/ answered 500");
  });

  it("only looks for a correlation id on server errors and defaults a missing code", () => {
    const error = new ServiceApiError({
      status: 404,
      method: "GET",
      path: "/x/",
      errorDescription: "correlation id: nope",
    });
    expect(error.correlationId).toBeUndefined();
    expect(error.error).toBe("unknown");
  });
});

describe("error names", () => {
  it("names each error by its own class, for logs", () => {
    const errors = [
      new ServiceError("x"),
      new ServiceApiError({ status: 400, method: "GET", path: "/" }),
      new ServiceTimeoutError("GET", "/", 10),
      new ServiceNetworkError("GET", "/", { cause: new Error("reset") }),
      new ServiceResponseError("GET", "/", "detail"),
      new ServiceInputError("op", "detail"),
      new SessionLookupError(["a"]),
    ];
    expect(errors.map((e) => e.name)).toEqual([
      "ServiceError",
      "ServiceApiError",
      "ServiceTimeoutError",
      "ServiceNetworkError",
      "ServiceResponseError",
      "ServiceInputError",
      "SessionLookupError",
    ]);
  });
});
