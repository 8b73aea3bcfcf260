import { describe, expect, it } from "vitest";
import {
  ServiceApiError,
  ServiceInputError,
  ServiceNetworkError,
  ServiceTimeoutError,
} from "./errors";
import { LOCAL_STATUS_AFTER, orderUpdateErrorMessage, serviceOrderIdOf } from "./order-updates";
import { UPDATE_TYPES } from "./resources";

const apiError = (status: number, description = "") =>
  new ServiceApiError({
    status,
    method: "POST",
    path: "/payments/orders/update",
    error: "x",
    errorDescription: description,
  });

describe("order updates", () => {
  it("maps every contract update type to the shop's status (cart_update keeps it)", () => {
    expect(Object.keys(LOCAL_STATUS_AFTER).sort()).toEqual([...UPDATE_TYPES].sort());
    expect(LOCAL_STATUS_AFTER.partial_shipment).toBe("partially_shipped");
    expect(LOCAL_STATUS_AFTER.partial_return).toBe("partially_returned");
    expect(LOCAL_STATUS_AFTER.cart_update).toBeNull();
  });

  it("knows which id the service has for an order", () => {
    expect(serviceOrderIdOf({ serviceOrderId: "ord_1", number: "SO-1", tradeInStatus: null })).toBe(
      "ord_1",
    );
    expect(
      serviceOrderIdOf({ serviceOrderId: null, number: "SO-1", tradeInStatus: "registered" }),
    ).toBe("SO-1");
    expect(
      serviceOrderIdOf({ serviceOrderId: null, number: "SO-1", tradeInStatus: "not_applied" }),
    ).toBeNull();
  });

  it("says 403, 404 and 400 in plain words, quoting the service", () => {
    expect(orderUpdateErrorMessage(apiError(403), "ord_1")).toMatch(/lacks the "updates" scope/);
    expect(orderUpdateErrorMessage(apiError(404), "ord_1")).toMatch(/does not know order ord_1/);
    const bad = orderUpdateErrorMessage(apiError(400, "Item p: quantity 2 is more"), "ord_1");
    expect(bad).toMatch(/rejected this update as invalid/);
    expect(bad).toContain("Item p: quantity 2 is more");
  });

  it("warns that a timeout may have been applied, and names a 500's correlation id", () => {
    expect(orderUpdateErrorMessage(new ServiceTimeoutError("POST", "/p", 10_000), "ord_1")).toMatch(
      /may or may not have been applied/,
    );
    expect(
      orderUpdateErrorMessage(
        new ServiceNetworkError("POST", "/p", { cause: new Error("reset") }),
        "ord_1",
      ),
    ).toMatch(/may or may not/);
    expect(
      orderUpdateErrorMessage(apiError(500, "Internal error. correlation id: abc-123"), "o"),
    ).toContain("abc-123");
    expect(orderUpdateErrorMessage(new ServiceInputError("orders/update", "bad"), "o")).toMatch(
      /not sent/,
    );
  });
});
