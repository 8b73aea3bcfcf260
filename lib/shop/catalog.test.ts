import { describe, expect, it } from "vitest";
import { setUpTestDb } from "@/test-support/test-db";
import { listProducts } from "./catalog";

const shop = setUpTestDb();

describe("catalog search", () => {
  it("finds products by name or description, case-insensitively", async () => {
    expect((await listProducts("EUR", { query: "phone" })).map((p) => p.slug)).toEqual(["phone"]);
    expect((await listProducts("EUR", { query: "ABOUT BUDS" })).map((p) => p.slug)).toEqual([
      "buds",
    ]);
  });

  it("treats % and _ literally, not as wildcards", async () => {
    expect(await listProducts("EUR", { query: "%" })).toEqual([]);
    expect(await listProducts("EUR", { query: "_" })).toEqual([]);
    expect(await listProducts("EUR", { query: "b_ds" })).toEqual([]);
    expect(await listProducts("EUR", { query: "p%e" })).toEqual([]);
    await shop.db.product.update({
      where: { slug: "buds" },
      data: { description: "100% wireless, model_b" },
    });
    expect((await listProducts("EUR", { query: "100%" })).map((p) => p.slug)).toEqual(["buds"]);
    expect((await listProducts("EUR", { query: "l_b" })).map((p) => p.slug)).toEqual(["buds"]);
  });
});
