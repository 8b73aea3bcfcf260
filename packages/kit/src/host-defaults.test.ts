import { describe, expect, it } from "vitest";
import {
  checkoutBodySchema,
  checkoutFormFields,
  DEFAULT_ORDER_STATUSES,
  orderItemsOf,
  orderStatusRules,
  shopRoutes,
} from "./host-defaults.js";
import { checkoutDetailsFromForm } from "./payment-option.js";
import { TEST_CHECKOUT_ADDRESS as ADDRESS } from "./test-support/adapter-test-shop.js";

describe("the host defaults", () => {
  it("routes and form fields: the defaults, a path or a name overridden alone", () => {
    expect(shopRoutes()).toEqual({
      callbacks: "/api/service",
      confirmation: "/checkout/confirmation",
      checkout: "/api/service/checkout",
      pendingOrder: "/api/service/pending-order",
    });
    expect(shopRoutes({ confirmation: "/kasse/bestaetigung" })).toMatchObject({
      confirmation: "/kasse/bestaetigung",
      callbacks: "/api/service",
    });
    const fields = checkoutFormFields({ email: "mail" });
    expect(fields.email).toBe("mail");
    expect(fields.billing.postal_code).toBe("billing_postal_code");
    expect(fields.shipping.country_code).toBe("shipping_country_code");
    expect(fields.shippingSame).toBe("shipping_same");
  });

  it("the checkout body read from a form by the default names gives the details, shipping to the billing address when the box is ticked", () => {
    const form = new FormData();
    form.set("email", "ada@example.com");
    for (const [field, value] of Object.entries(ADDRESS)) form.set(`billing_${field}`, value);
    form.set("shipping_same", "on");
    form.set("shipping_method", "standard");
    const body = checkoutBodySchema({ shippingMethods: ["standard", "express"] });
    const parsed = body.parse(checkoutDetailsFromForm(form, checkoutFormFields()));
    expect(parsed).toEqual({
      email: "ada@example.com",
      billing: ADDRESS,
      shipping: ADDRESS,
      shippingMethod: "standard",
    });
  });

  it("the checkout body refuses a delivery the shop does not offer and an address no parcel reaches", () => {
    const body = checkoutBodySchema({ shippingMethods: ["standard"] });
    const details = { email: "ada@example.com", billing: ADDRESS, shipping_method: "standard" };
    expect(body.safeParse(details).success).toBe(true);
    expect(body.safeParse({ ...details, shipping_method: "express" }).success).toBe(false);
    const noCity = body.safeParse({ ...details, billing: { ...ADDRESS, city: " " } });
    expect(noCity.error?.issues.map((i) => i.path.join("."))).toEqual(["billing.city"]);
    const country = body.safeParse({ ...details, shipping: { ...ADDRESS, country_code: "de" } });
    expect(country.error?.issues.map((i) => i.path.join("."))).toEqual(["shipping.country_code"]);
  });

  it("order statuses from the table: one step, any number of steps, known, paid", () => {
    const rules = orderStatusRules();
    expect(rules.forServiceStatus).toEqual(DEFAULT_ORDER_STATUSES.forServiceStatus);
    expect(rules.canTransition("awaiting_payment", "paid")).toBe(true);
    expect(rules.canTransition("awaiting_payment", "shipped")).toBe(false);
    expect(rules.canReach("awaiting_payment", "returned")).toBe(true);
    expect(rules.canReach("on_hold", "complete")).toBe(true);
    expect(rules.canReach("returned", "paid")).toBe(false);
    expect(rules.canReach("complete", "complete")).toBe(false);
    // A target only (no key of its own) is known; a name of Object's prototype is not.
    expect(rules.isKnown("cancelled")).toBe(true);
    expect(rules.isKnown("toString")).toBe(false);
    expect(rules.isPaidOrLater("shipped")).toBe(true);
    expect(rules.isPaidOrLater("on_hold")).toBe(false);
    expect(rules.held).toBe("on_hold");
  });

  it("a host's own status table replaces the defaults' parts it gives", () => {
    const rules = orderStatusRules({
      transitions: { neu: ["bezahlt", "gehalten"], gehalten: ["bezahlt"], bezahlt: ["versandt"] },
      forServiceStatus: { pending: "neu", payment_completed: "bezahlt", completed: "versandt" },
      paidOrLater: ["bezahlt", "versandt"],
      held: "gehalten",
    });
    expect(rules.isKnown("versandt")).toBe(true);
    expect(rules.isKnown("paid")).toBe(false);
    expect(rules.canReach("gehalten", "versandt")).toBe(true);
    expect(rules.afterUpdate).toEqual(DEFAULT_ORDER_STATUSES.afterUpdate);
  });

  it("a placed order's lines carry the whole line's tax and each product's page", () => {
    const lines = [
      {
        productId: "p1",
        name: "Phone",
        description: "A phone",
        quantity: 3,
        price: 1000,
        tax: 230,
      },
    ];
    expect(orderItemsOf(lines, "https://shop.example")).toEqual([
      {
        productId: "p1",
        name: "Phone",
        description: "A phone",
        url: "https://shop.example/#p1",
        quantity: 3,
        price: 1000,
        tax: 690,
      },
    ]);
    expect(orderItemsOf(lines, "https://x", (l) => `https://x/p/${l.productId}`)[0]?.url).toBe(
      "https://x/p/p1",
    );
  });
});
