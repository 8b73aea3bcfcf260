import { describe, expect, it } from "vitest";
import { ADDRESS_FIELDS } from "./cart.js";
import {
  checkoutDetailsFromForm,
  isServicePaySelected,
  parsePaymentOptionDetails,
  presentPaymentOption,
  sanitizeServiceHtml,
  staysSelectedAfterValuationUpdate,
} from "./payment-option.js";

const details = (mode: string, template_name = mode, extra?: unknown) =>
  parsePaymentOptionDetails({
    mode,
    template_name,
    label: "Pay with Service",
    info: "<strong>150 €</strong> off.<br>You pay 300 €.",
    ...(extra === undefined ? {} : { extra }),
    data: {
      valuation: 15000,
      tradein: null,
      minimum: 5000,
      tradein_currency: "EUR",
      cart_currency: "EUR",
    },
  });

describe("presentPaymentOption", () => {
  it("hides unavailable, unknown modes, unreadable details and a missing SDK", () => {
    expect(presentPaymentOption(details("unavailable"))).toEqual({ kind: "hidden" });
    expect(presentPaymentOption(details("something_new"))).toEqual({ kind: "hidden" });
    expect(presentPaymentOption(parsePaymentOptionDetails({ nope: 1 }))).toEqual({
      kind: "hidden",
    });
    expect(presentPaymentOption(null)).toEqual({ kind: "hidden" });
  });

  it("makes tradein_valid selectable without opening the wizard", () => {
    expect(
      presentPaymentOption(details("tradein_valid", "tradein_valid", "Pick how to pay")),
    ).toEqual({
      kind: "selectable",
      label: "Pay with Service",
      infoHtml: "<strong>150 €</strong> off.<br>You pay 300 €.",
      extraHtml: "Pick how to pay",
      opensValuationOnSelect: false,
    });
  });

  it("makes tradein_missing selectable and opening the wizard on select", () => {
    expect(presentPaymentOption(details("tradein_missing"))).toMatchObject({
      kind: "selectable",
      opensValuationOnSelect: true,
      extraHtml: "",
    });
  });

  it.each(["currency", "cart_below_limit", "other_ok"])(
    "shows tradein_invalid/%s disabled with the service's explanation",
    (template) => {
      expect(presentPaymentOption(details("tradein_invalid", template))).toMatchObject({
        kind: "disabled",
        template,
        explanationHtml: "<strong>150 €</strong> off.<br>You pay 300 €.",
      });
    },
  );

  it("puts a disabled option's extra text in its explanation: other_ok tells what another method still gives", () => {
    const otherOk = details(
      "tradein_invalid",
      "other_ok",
      "Pay with another method and you still get 10 € for your device.",
    );
    expect(presentPaymentOption(otherOk)).toMatchObject({
      kind: "disabled",
      explanationHtml:
        "<strong>150 €</strong> off.<br>You pay 300 €.<br>Pay with another method and you still get 10 € for your device.",
    });
  });

  it("falls back to our explanation when info is empty, and to 'other' for an unknown template", () => {
    const bare = parsePaymentOptionDetails({ mode: "tradein_invalid", template_name: "currency" });
    expect(presentPaymentOption(bare)).toMatchObject({
      kind: "disabled",
      explanationHtml: "Your trade-in offer and your cart are in different currencies.",
    });
    const odd = parsePaymentOptionDetails({
      mode: "tradein_invalid",
      template_name: "new_rule",
      info: "",
    });
    expect(presentPaymentOption(odd)).toMatchObject({ kind: "disabled", template: "other" });
  });
});

describe("staysSelectedAfterValuationUpdate", () => {
  it("keeps the option selected only when the refreshed mode is tradein_valid", () => {
    expect(staysSelectedAfterValuationUpdate(true, details("tradein_valid"))).toBe(true);
    expect(staysSelectedAfterValuationUpdate(true, details("tradein_missing"))).toBe(false);
    expect(staysSelectedAfterValuationUpdate(true, details("tradein_invalid", "currency"))).toBe(
      false,
    );
    expect(staysSelectedAfterValuationUpdate(true, null)).toBe(false);
    expect(staysSelectedAfterValuationUpdate(false, details("tradein_valid"))).toBe(false);
  });
});

describe("isServicePaySelected", () => {
  it("is true only for the service's radio value", () => {
    expect(isServicePaySelected("service_pay")).toBe(true);
    expect(isServicePaySelected("card")).toBe(false);
    expect(isServicePaySelected(null)).toBe(false);
  });
});

describe("sanitizeServiceHtml", () => {
  it.each([
    ["plain text", "plain text"],
    ["a <strong>b</strong><br>c<br/>d<BR />", "a <strong>b</strong><br>c<br>d<br>"],
    ['<script>alert("x")</script>', "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"],
    ['<img src=x onerror="alert(1)">', "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"],
    ['<strong onclick="x">hi</strong>', "&lt;strong onclick=&quot;x&quot;&gt;hi"],
    ["<a href='javascript:x'>go</a>", "&lt;a href=&#39;javascript:x&#39;&gt;go&lt;/a&gt;"],
    ["<strong>open", "<strong>open</strong>"],
    ["stray</strong> closer", "stray closer"],
    ["</br> and <strong/>", "&lt;/br&gt; and &lt;strong/&gt;"],
    ["5 &lt; 6 &amp; 150&nbsp;€ &#8364; & more", "5 &lt; 6 &amp; 150&nbsp;€ &#8364; &amp; more"],
    ["a <b>bold</b> claim", "a &lt;b&gt;bold&lt;/b&gt; claim"],
  ])("%j → %j", (input, output) => {
    expect(sanitizeServiceHtml(input)).toBe(output);
  });

  it("never lets a tag other than br and strong through", () => {
    const hostile = "<<strong>script>x</script><svg/onload=1><strong>ok</strong";
    const out = sanitizeServiceHtml(hostile);
    const tags = out.match(/<[^>]*>/g) ?? [];
    for (const tag of tags) expect(["<br>", "<strong>", "</strong>"]).toContain(tag);
  });
});

describe("checkoutDetailsFromForm: the host's field names", () => {
  // A host whose form says customer[email], bill[zip], … and ship_to_billing.
  const named = (prefix: string) =>
    Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, `${prefix}[${field}]`])) as Record<
      (typeof ADDRESS_FIELDS)[number],
      string
    >;
  const fields = {
    email: "customer[email]",
    billing: named("bill"),
    shipping: named("ship"),
    shippingSame: "ship_to_billing",
    shippingMethod: "delivery",
  };
  const form = (same: boolean) => {
    const data = new FormData();
    data.set("customer[email]", "ana@example.com");
    for (const field of ADDRESS_FIELDS) {
      data.set(`bill[${field}]`, `b-${field}`);
      data.set(`ship[${field}]`, `s-${field}`);
    }
    data.set("delivery", "express");
    // The shop's own names, which this host does not use: never read.
    data.set("email", "wrong@example.com");
    data.set("shipping_method", "standard");
    if (same) data.set("ship_to_billing", "1");
    return data;
  };

  it("reads each detail by the host's name into the handlers' body", () => {
    const body = checkoutDetailsFromForm(form(false), fields);
    expect(body.email).toBe("ana@example.com");
    expect(body.shipping_method).toBe("express");
    expect(body.billing.postal_code).toBe("b-postal_code");
    expect(body.shipping?.city).toBe("s-city");
    expect(Object.keys(body.billing).sort()).toEqual([...ADDRESS_FIELDS].sort());
  });

  it("leaves out the shipping address when the host's same-address box is checked", () => {
    expect(checkoutDetailsFromForm(form(true), fields).shipping).toBeUndefined();
  });

  it("reads a missing input as empty, for the handler to name, not the shop's field", () => {
    const body = checkoutDetailsFromForm(new FormData(), fields);
    expect(body.email).toBe("");
    expect(body.billing.given_name).toBe("");
  });
});
