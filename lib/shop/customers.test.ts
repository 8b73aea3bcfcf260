import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { getCustomer, recentOrders } from "./customers";

// The customer and their orders are read with raw statements; these tests hold them to what
// Prisma's model query reads from the same database (SQLite here, PostgreSQL in the suite's
// second run).

const shop = setUpTestDb();

const address = (name: string) => ({
  given_name: name,
  family_name: "Byrne",
  phone: "+353 1 555 0100",
  address: "5 Harbour Road",
  city: "Cork",
  state: "",
  country_code: "IE",
  postal_code: "T12 X000",
});

async function customer(withAddress: boolean) {
  return shop.db.customer.create({
    data: {
      email: `${randomUUID()}@example.test`,
      passwordHash: "scrypt$00$00",
      given_name: "Robin",
      family_name: "Byrne",
      ...(withAddress ? { address: { create: address("Robin") } } : {}),
    },
  });
}

async function byModelQuery(id: string) {
  return shop.db.customer.findUnique({
    where: { id },
    select: { id: true, email: true, given_name: true, family_name: true, address: true },
  });
}

async function order(customerId: string, total: number, createdAt: Date) {
  const key = randomUUID();
  return shop.db.order.create({
    data: {
      number: `SO-${key}`,
      cartId: `cart-${key}`,
      sessionId: `session-${key}`,
      customer: { connect: { id: customerId } },
      email: "robin@example.test",
      status: "payment_completed",
      paymentMethod: "card",
      shippingMethod: "standard",
      currency: "EUR",
      price: total,
      tax: 0,
      shippingPrice: 0,
      total,
      createdAt,
      billingAddress: { create: address("Billing") },
      shippingAddress: { create: address("Shipping") },
    },
  });
}

describe("reading a customer", () => {
  it("gives name, email and saved address as the model query reads them", async () => {
    const withAddress = await customer(true);
    const read = await getCustomer(withAddress.id);
    expect(read?.address?.city).toBe("Cork");
    expect(read).toEqual(await byModelQuery(withAddress.id));
  });

  it("gives no address for a customer without one, and nobody for an unknown id", async () => {
    const without = await customer(false);
    expect(await getCustomer(without.id)).toEqual({ ...(await byModelQuery(without.id)) });
    expect((await getCustomer(without.id))?.address).toBeNull();
    expect(await getCustomer("no-such-customer")).toBeNull();
  });

  it("lists the customer's ten latest orders, newest first, totals as numbers, and nobody else's", async () => {
    const robin = await customer(false);
    const other = await customer(false);
    const start = Date.UTC(2030, 0, 1);
    for (let i = 0; i < 12; i++) await order(robin.id, 1000 + i, new Date(start + i * 60_000));
    await order(other.id, 99, new Date(start + 3_600_000));
    const listed = await recentOrders(robin.id);
    const expected = await shop.db.order.findMany({
      where: { customerId: robin.id },
      orderBy: { createdAt: "desc" },
      take: 10,
      select: { id: true, number: true, status: true, total: true, currency: true },
    });
    expect(listed).toEqual(expected);
    expect(listed.map((o) => o.total)).toEqual([
      1011, 1010, 1009, 1008, 1007, 1006, 1005, 1004, 1003, 1002,
    ]);
    expect(await recentOrders("no-such-customer")).toEqual([]);
  });
});
