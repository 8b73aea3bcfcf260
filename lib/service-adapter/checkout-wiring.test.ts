import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkoutDetailsFromForm } from "@service-integration/kit";
import { describe, expect, it } from "vitest";
import { parseCheckoutForm } from "@/lib/shop/checkout-input";
import { checkoutFormFields, shopRoutes } from "./checkout-wiring";

const app = join(__dirname, "..", "..", "app");

describe("this shop's routes and checkout field names for the kit", () => {
  it("names routes this shop serves", () => {
    expect(existsSync(join(app, shopRoutes.checkout, "route.ts"))).toBe(true);
    expect(existsSync(join(app, shopRoutes.pendingOrder, "route.ts"))).toBe(true);
    for (const callback of ["shopper_data", "purchase_data"]) {
      expect(existsSync(join(app, shopRoutes.callbacks, callback, "route.ts"))).toBe(true);
    }
    expect(existsSync(join(app, "(shop)", shopRoutes.confirmation, "page.tsx"))).toBe(true);
  });

  it("names the inputs the shop's own checkout parser reads", () => {
    const form = new FormData();
    const address = {
      given_name: "Ana",
      family_name: "Ng",
      phone: "+31201234567",
      address: "Main 1",
      city: "Amsterdam",
      state: "NH",
      country_code: "NL",
      postal_code: "1011AA",
    };
    form.set(checkoutFormFields.email, "ana@example.com");
    for (const [field, value] of Object.entries(address)) {
      form.set(checkoutFormFields.billing[field as keyof typeof address], value);
    }
    form.set(checkoutFormFields.shippingSame, "on");
    form.set(checkoutFormFields.shippingMethod, "standard");
    form.set("payment_method", "service_pay");
    const shop = parseCheckoutForm(form);
    expect(shop).toMatchObject({ ok: true, input: { email: "ana@example.com", billing: address } });
    const sent = checkoutDetailsFromForm(form, checkoutFormFields);
    expect(sent).toEqual({
      email: "ana@example.com",
      billing: address,
      shipping_method: "standard",
    });
  });
});
