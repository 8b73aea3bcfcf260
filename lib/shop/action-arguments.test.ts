import { notFound } from "next/navigation";
import { describe, expect, it } from "vitest";
import { requireFormData } from "./action-arguments";
import { loginAction } from "./actions/account-actions";
import { checkoutAction } from "./actions/checkout-actions";

// Anyone can post any arguments to a Server Action's id: a wrong type is Next.js's 404
// (notFound), never a TypeError inside the action (a 500).

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const NOT_FOUND = thrownBy(() => notFound()) as Error;

describe("requireFormData", () => {
  it("passes FormData", () => {
    expect(() => requireFormData(new FormData())).not.toThrow();
  });

  it.each([[1], ["x"], [null], [undefined], [{ get: () => "x" }], [[1, 2, 3]]])(
    "answers %j as notFound() does",
    (value) => {
      expect(thrownBy(() => requireFormData(value))).toEqual(NOT_FOUND);
    },
  );

  it("guards the actions before they read the form", async () => {
    await expect(loginAction({}, 2 as unknown as FormData)).rejects.toEqual(NOT_FOUND);
    await expect(checkoutAction({}, "x" as unknown as FormData)).rejects.toEqual(NOT_FOUND);
  });
});
