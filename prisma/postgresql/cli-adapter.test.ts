import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@/test-support/test-db";
import { cliAdapter } from "./cli-adapter";

// The Prisma CLI's workaround for prisma/orm#27403 (cli-adapter.ts). The first test fails once
// the plain adapter reads these catalog types: then delete the workaround and this file.
const admin = testPostgresAdminUrl();
const CATALOG_TYPES = `SELECT 'public'::name AS "name", 'r'::"char" AS "char",
  ARRAY['a', 'b']::name[] AS "names"`;
const query = { sql: CATALOG_TYPES, args: [], argTypes: [] };

describe.skipIf(!admin)("the Prisma CLI's PostgreSQL adapter (TEST_DATABASE=postgresql)", () => {
  const connections: { dispose(): Promise<void> }[] = [];
  const connect = async (factory: PrismaPg) => {
    const adapter = await factory.connect();
    connections.push(adapter);
    return adapter;
  };
  afterAll(async () => {
    for (const adapter of connections) await adapter.dispose();
  });

  it('is still needed: the plain adapter cannot read name, "char" and name[] columns', async () => {
    const plain = await connect(new PrismaPg({ connectionString: admin }));
    await expect(plain.queryRaw(query)).rejects.toMatchObject({
      cause: { kind: "UnsupportedNativeDataType" },
    });
  });

  it("reads them as text and text[]", async () => {
    const adapter = await connect(cliAdapter(admin as string));
    const result = await adapter.queryRaw(query);
    expect(result.rows).toEqual([["public", "r", ["a", "b"]]]);
  });
});
