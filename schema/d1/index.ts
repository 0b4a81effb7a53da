import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as admin from "./admin";
import * as auth from "./auth";
import * as cities from "./cities";
import * as gochips from "./gochips";
import * as history from "./history";
import * as memberships from "./memberships";
import * as newsletters from "./newsletters";
import * as oauth from "./oauth";
import * as passes from "./passes";
import * as payments from "./payments";
import * as rankings from "./rankings";
import * as registration from "./registration";
import * as servers from "./servers";
import * as shipping from "./shipping";
import * as tables from "./tables";

export * from "./admin";
export * from "./auth";
export * from "./cities";
export * from "./gochips";
export * from "./history";
export * from "./memberships";
export * from "./newsletters";
export * from "./oauth";
export * from "./passes";
export * from "./payments";
export * from "./rankings";
export * from "./registration";
export * from "./servers";
export * from "./shipping";
export * from "./tables";

const schema = {
  ...tables,
  ...admin,
  ...auth,
  ...cities,
  ...gochips,
  ...history,
  ...memberships,
  ...newsletters,
  ...oauth,
  ...passes,
  ...payments,
  ...registration,
  ...servers,
  ...rankings,
  ...shipping,
};

function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Db = ReturnType<typeof createDb>;

/**
 * The platform database for a binding. Built from the binding a request hands in, never at module scope;
 * kept per binding because drizzle rebuilds its relational schema on every call (measured on the timing
 * path, where every batch of reads opened it). A drizzle instance holds no request state of its own.
 */
const opened = new WeakMap<D1Database, Db>();
export function openDb(d1: D1Database): Db {
  let db = opened.get(d1);
  if (!db) {
    db = createDb(d1);
    opened.set(d1, db);
  }
  return db;
}

/** A database that only reads with drizzle's query builder: what a replica's session is used for. */
export type ReadDb = Pick<Db, "select">;

/**
 * The platform database read from a nearby read replica (D1's Sessions API, "first-unconstrained"), for the
 * lookups a crowd repeats at once on public pages: a results page's race row, asked by every reader behind a
 * DNF within seconds (decision 0093). A replica may be a moment behind the primary; without replication turned
 * on, D1 answers from the primary as before. A session per call, as D1 orders reads within one session only;
 * no relational schema, which drizzle would rebuild on every call.
 */
export function openReplicaDb(d1: D1Database): ReadDb {
  return drizzle(d1.withSession("first-unconstrained") as unknown as D1Database);
}

const rawDialect = new SQLiteAsyncDialect();

/**
 * Runs raw SQL statements as one D1 batch (one transaction). drizzle's own batch cannot take `db.run(sql…)`
 * with parameters, and conditional inserts (INSERT … SELECT … WHERE EXISTS) need raw SQL. Returns each
 * statement's D1 result, whose `meta.changes` says what it wrote.
 */
export async function rawBatch(db: Db, statements: readonly SQL[]): Promise<D1Result[]> {
  const client = db.$client;
  return client.batch(
    statements.map((statement) => {
      const query = rawDialect.sqlToQuery(statement);
      return client.prepare(query.sql).bind(...query.params);
    }),
  );
}
