import { drizzle } from "drizzle-orm/d1";
import * as auth from "./auth";
import * as cities from "./cities";
import * as oauth from "./oauth";
import * as payments from "./payments";
import * as registration from "./registration";
import * as tables from "./tables";

export * from "./auth";
export * from "./cities";
export * from "./oauth";
export * from "./payments";
export * from "./registration";
export * from "./tables";

/** The platform database; created per request from the binding, never at module scope. */
export function openDb(d1: D1Database) {
  return drizzle(d1, { schema: { ...tables, ...auth, ...cities, ...oauth, ...payments, ...registration } });
}

export type Db = ReturnType<typeof openDb>;
