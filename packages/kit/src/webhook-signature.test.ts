import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature, webhookSecret } from "./webhook-signature.js";

const secret = webhookSecret({ userId: "user-17", merchantId: "merchant-3" });
const body = Buffer.from(
  '{"id":"n1","order_id":"o1","cart_id":"c1","status":"payment_completed","amount":10000}',
);
// Computed independently of the module under test.
const independent = createHmac("sha256", "user-17-merchant-3").update(body).digest("hex");

describe("webhookSecret", () => {
  it("is <user_id>-<merchant_id>", () => {
    expect(secret).toBe("user-17-merchant-3");
  });
});

describe("verifyWebhookSignature", () => {
  it("accepts the independent node:crypto signature of the raw bytes", () => {
    expect(verifyWebhookSignature(body, independent, secret)).toBe(true);
    expect(signWebhookBody(body, secret)).toBe(independent);
  });

  it("accepts a Uint8Array body and surrounding whitespace in the header", () => {
    expect(verifyWebhookSignature(new Uint8Array(body), ` ${independent}\t`, secret)).toBe(true);
  });

  it("fails for the same JSON re-serialised with different whitespace", () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    expect(verifyWebhookSignature(reserialised, independent, secret)).toBe(false);
  });

  it("fails when the body changed by one byte", () => {
    const tampered = Buffer.from(body.toString().replace("10000", "10001"));
    expect(verifyWebhookSignature(tampered, independent, secret)).toBe(false);
  });

  it("fails for a signature keyed with the client secret", () => {
    const wrong = createHmac("sha256", "demo-client-secret").update(body).digest("hex");
    expect(verifyWebhookSignature(body, wrong, "demo-client-secret")).toBe(true); // self-consistent
    expect(verifyWebhookSignature(body, wrong, secret)).toBe(false);
  });

  it("accepts uppercase hex (same bytes; decision documented in the README)", () => {
    expect(verifyWebhookSignature(body, independent.toUpperCase(), secret)).toBe(true);
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["empty", ""],
    ["prefixed", `sha256=${independent}`],
    ["truncated", independent.slice(0, 63)],
    ["too long", `${independent}0`],
    ["not hex", "z".repeat(64)],
    ["base64", createHmac("sha256", secret).update(body).digest("base64")],
  ])("treats a %s header as invalid", (_label, header) => {
    expect(verifyWebhookSignature(body, header, secret)).toBe(false);
  });

  it("never passes with an empty secret", () => {
    const emptyKeyed = createHmac("sha256", "").update(body).digest("hex");
    expect(verifyWebhookSignature(body, emptyKeyed, "")).toBe(false);
  });
});
