import { drizzle } from "drizzle-orm/d1";
import * as auth from "./auth";
import * as oauth from "./oauth";
import * as tables from "./tables";

export * from "./auth";
export * from "./oauth";
export * from "./tables";

/** The platform database; created per request from the binding, never at module scope. */
export function openDb(d1: D1Database) {
  return drizzle(d1, { schema: { ...tables, ...auth, ...oauth } });
}

export type Db = ReturnType<typeof openDb>;
