import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serviceCheckoutSchema } from "@/lib/shop/checkout-input";
import { CHECKOUT } from "@/test-support/test-shop";
import { invalidFieldsResponse } from "./route-input";

const rejected = (body: unknown) => {
  const parsed = serviceCheckoutSchema.safeParse(body);
  if (parsed.success) throw new Error("expected the body to be rejected");
  return invalidFieldsResponse(parsed.error);
};

describe("invalidFieldsResponse", () => {
  it("names the rejected fields as the checkout form labels them, and keeps the detail", async () => {
    const res = rejected({
      ...CHECKOUT,
      email: "not-an-email",
      billing: { ...CHECKOUT.billing, postal_code: 7, given_name: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.error).toBe("bad_request");
    expect(body.error_description).toBe(
      "Check these fields: email, billing first name, billing postal code.",
    );
    expect(body.fields).toEqual(
      expect.arrayContaining([
        { field: "email", message: "Enter an email address like name@example.com." },
        { field: "billing.postal_code", message: expect.any(String) },
      ]),
    );
  });

  it("names a field once however many rules it broke, and says so for a body that is no object", async () => {
    const once = z.object({ shipping_method: z.string().min(3).regex(/^x/) }).safeParse({
      shipping_method: "a",
    });
    if (once.success) throw new Error("expected a failure");
    expect((await invalidFieldsResponse(once.error).json()).error_description).toBe(
      "Check these fields: delivery method.",
    );
    expect((await rejected("text").json()).error_description).toBe(
      "The body must be a JSON object with the expected fields.",
    );
  });
});
