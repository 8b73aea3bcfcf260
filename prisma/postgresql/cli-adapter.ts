import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

// For the Prisma CLI only (prisma.config.ts), never the app's runtime client.
//
// Prisma 6.19's WebAssembly schema engine reads pg_catalog columns of types `name` (oid 19),
// `"char"` (18) and `name[]` (1003), which @prisma/adapter-pg cannot map, so `migrate deploy`
// and `db push` fail with "Column type 'name' could not be deserialized" (prisma/orm#27403).
// Both are text to anyone reading them: this pool's connections report them as `text` (25) and
// `text[]` (1009). cli-adapter.test.ts fails once the plain adapter no longer needs this.
const AS_TEXT = new Map([
  [19, 25],
  [18, 25],
  [1003, 1009],
]);
// pg-types' TypeId lists scalar types only; 1009 (text[]) has a parser all the same.
const parseTextArray = (pg.types.getTypeParser as (oid: number) => (value: string) => unknown)(
  1009,
);

function reportAsText(res: pg.QueryResult | undefined): void {
  for (const [index, field] of (res?.fields ?? []).entries()) {
    const asText = AS_TEXT.get(field.dataTypeID);
    if (asText === undefined) continue;
    if (field.dataTypeID === 1003) {
      for (const row of res?.rows ?? []) {
        const value = Array.isArray(row) ? row[index] : undefined;
        if (typeof value === "string") row[index] = parseTextArray(value);
      }
    }
    field.dataTypeID = asText;
  }
}

export class CatalogAsTextClient extends pg.Client {
  // pg's query() has a dozen overloads; the adapter uses the promise form on a checked-out
  // connection and pg.Pool's query() the callback form.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  query(...args: any[]): any {
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last];
      args[last] = (error: Error | null, res: pg.QueryResult) => {
        if (!error) reportAsText(res);
        callback(error, res);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (!(result instanceof Promise)) return result;
    return result.then((res: pg.QueryResult) => {
      reportAsText(res);
      return res;
    });
  }
}

/** The driver adapter the Prisma CLI uses for a PostgreSQL DATABASE_URL. */
export function cliAdapter(connectionString: string) {
  // allowExitOnIdle: the CLI would otherwise wait for idle connections to time out.
  // `Client` and `allowExitOnIdle` are documented pg.Pool options that this @types/pg lacks.
  const config = { connectionString, Client: CatalogAsTextClient, allowExitOnIdle: true };
  return new PrismaPg(new pg.Pool(config as pg.PoolConfig));
}
