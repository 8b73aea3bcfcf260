// @service-integration/kysely-adapter/sqlite: the integration's tables on SQLite (their SQL)
// and the adapter over them, on Kysely's SqliteDialect (better-sqlite3).
import {
  type Kysely,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PrimitiveValueListNode,
  type RootOperationNode,
  sql,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import {
  driverCode,
  type KyselyAdapterOptions,
  type KyselyServiceAdapter,
  kyselyAdapter,
} from "./core.js";
import { flagColumns, timeColumns } from "./sqlite/schema.js";

/**
 * The shop's own transaction as the adapter runs its own: `BEGIN IMMEDIATE` … `COMMIT` (ROLLBACK
 * when `fn` throws) on Kysely's one SQLite connection, held for the whole of `fn`. IMMEDIATE: the
 * write lock is taken before the first read, so what it reads stays as read until it commits
 * (SQLite's FOR UPDATE, service-rows.ts lockedOrders). Held: Kysely's SqliteDialect queues the
 * process's other queries behind it, so none joins it. Inside `fn` use `q`, never `db` (it waits
 * for `fn`: a deadlock).
 */
export function sqliteTransaction<DB, T>(
  db: Kysely<DB>,
  fn: (q: Kysely<DB>) => PromiseLike<T>,
): Promise<T> {
  return db.connection().execute(async (q) => {
    await sql`BEGIN IMMEDIATE`.execute(q);
    const result = await Promise.resolve(q)
      .then(fn)
      .catch(async (error: unknown) => {
        // SQLite may have ended the transaction itself (a full disk…): the first error is the one.
        await sql`ROLLBACK`.execute(q).catch(() => undefined);
        throw error;
      });
    await sql`COMMIT`.execute(q);
    return result;
  });
}

// SQLite stores times as integer milliseconds and flags as 0/1, and better-sqlite3 binds neither
// a Date nor a boolean: the adapter's view converts both ways, so its rows are the kit's types.
const stored = (value: unknown) =>
  value instanceof Date ? value.getTime() : typeof value === "boolean" ? Number(value) : value;

class StoredValues extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return super.transformValue({ ...node, value: stored(node.value) });
  }
  protected override transformPrimitiveValueList(
    node: PrimitiveValueListNode,
  ): PrimitiveValueListNode {
    return super.transformPrimitiveValueList({ ...node, values: node.values.map(stored) });
  }
}

function read(row: UnknownRow): UnknownRow {
  const out: UnknownRow = { ...row };
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && timeColumns.has(key)) out[key] = new Date(Number(value));
    if (value !== null && flagColumns.has(key)) out[key] = Boolean(value);
  }
  return out;
}

/** The adapter's view runs after CamelCasePlugin: the column names here are camelCase. */
const storedValues: KyselyPlugin = {
  transformQuery: ({ node, queryId }) =>
    new StoredValues().transformNode(node, queryId) as RootOperationNode,
  transformResult: async ({ result }) => ({ ...result, rows: result.rows.map(read) }),
};

/**
 * Every port of the kit that belongs to the integration, on SQLite through Kysely's
 * SqliteDialect (better-sqlite3): each transaction is `sqliteTransaction`'s (BEGIN IMMEDIATE on
 * the one connection, held), the retry job's lease one UPDATE (one writer at a time), `INSERT …
 * ON CONFLICT` for every claim, and a unique violation (SQLITE_CONSTRAINT_UNIQUE /
 * _PRIMARYKEY) answered as the kit's ConcurrentWriteError. Set `busy_timeout` on the
 * connection when several processes share the file (BEGIN IMMEDIATE then waits, not fails).
 */
export function kyselyServiceAdapter<DB>(
  options: KyselyAdapterOptions<DB>,
): KyselyServiceAdapter<DB> {
  const db = options.db as Kysely<unknown>;
  return kyselyAdapter(options, {
    transaction: (fn) => sqliteTransaction(db, fn),
    plugins: [storedValues],
    async forUpdate(select, q) {
      // A write that changes nothing takes the write lock when the transaction does not hold it
      // yet (a shop's deferred BEGIN handing the adapter its `q`); under BEGIN IMMEDIATE, a no-op.
      await q.deleteFrom("serviceLeases").where(sql<boolean>`0`).execute();
      return select;
    },
    skipLocked: (select) => select,
    isUniqueViolation: (error) =>
      /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(`${driverCode(error)}`),
  });
}

export type { KyselyAdapterOptions, KyselyServiceAdapter } from "./core.js";
export * from "./sqlite/schema.js";
