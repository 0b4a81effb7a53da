import { drizzle } from "drizzle-orm/d1";
import * as tables from "./tables";

export * from "./tables";

/** The platform database; created per request from the binding, never at module scope. */
export function openDb(d1: D1Database) {
  return drizzle(d1, { schema: tables });
}

export type Db = ReturnType<typeof openDb>;
