import { describe, expect, it } from "vitest";
import { type LocalOrderRef, planReconciliation } from "./reconciliation.js";

const local = (over: Partial<LocalOrderRef>): LocalOrderRef => ({
  id: "o1",
  number: "SO-1",
  cartId: "cart-1",
  status: "pending",
  serviceOrderId: null,
  ...over,
});
const entry = (over: Record<string, unknown> = {}) => ({
  order_id: "ord_1",
  cart_id: "cart-1",
  status: "payment_completed",
  amount: 1000,
  ...over,
});

/** The shop's rule: the payment is known in every status but pending and cancelled. */
const isPaidOrLater = (status: string) => status !== "pending" && status !== "cancelled";

describe("planReconciliation", () => {
  it("repairs a pending order whose webhook never arrived, matched by cart id", () => {
    const [step] = planReconciliation([entry()], [local({})], isPaidOrLater);
    expect(step?.kind).toBe("repair");
    expect(step?.local?.number).toBe("SO-1");
  });

  it("matches by service order id before cart id", () => {
    const a = local({ id: "a", serviceOrderId: "ord_1", status: "shipped" });
    const b = local({ id: "b", cartId: "cart-2" });
    const [step] = planReconciliation([entry()], [b, a], isPaidOrLater);
    expect(step).toMatchObject({ kind: "in_sync", local: { id: "a" } });
  });

  it("cross-checks the cart id: a service order id found on another cart is left for a person", () => {
    const a = local({ id: "a", cartId: "other", serviceOrderId: "ord_1", status: "shipped" });
    const [step] = planReconciliation([entry()], [a], isPaidOrLater);
    expect(step).toMatchObject({ kind: "conflict", local: { id: "a" } });
  });

  it("leaves an order that is paid and linked alone", () => {
    const steps = planReconciliation(
      [entry()],
      [local({ status: "payment_completed", serviceOrderId: "ord_1" })],
      isPaidOrLater,
    );
    expect(steps.map((s) => s.kind)).toEqual(["in_sync"]);
  });

  it("links a paid order that lacks the service order id", () => {
    const steps = planReconciliation(
      [entry()],
      [local({ status: "payment_completed" })],
      isPaidOrLater,
    );
    expect(steps.map((s) => s.kind)).toEqual(["repair"]);
  });

  it("flags a cart that another service order already claimed", () => {
    const steps = planReconciliation(
      [entry()],
      [local({ serviceOrderId: "ord_9" })],
      isPaidOrLater,
    );
    expect(steps.map((s) => s.kind)).toEqual(["conflict"]);
  });

  it("plans a repair with no local order (webhook mode creates it from the kept checkout)", () => {
    const steps = planReconciliation([entry({ cart_id: "unknown" })], [local({})], isPaidOrLater);
    expect(steps).toEqual([{ kind: "repair", entry: entry({ cart_id: "unknown" }), local: null }]);
  });

  it("handles an entry without a cart id", () => {
    const steps = planReconciliation([entry({ cart_id: null })], [local({})], isPaidOrLater);
    expect(steps[0]).toMatchObject({ kind: "repair", local: null });
  });
});
