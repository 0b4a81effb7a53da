import type { Db } from "../schema/d1";
import type { Tenant } from "../tenants/resolve";
import type { ValidSession } from "./auth/sessions";

/** What every Worker handler receives: bindings, the resolved tenant, the session, the database and the context. */
export interface RequestContext {
  env: Env;
  tenant: Tenant;
  session: ValidSession | null;
  db: Db;
  ctx: ExecutionContext;
  now: number;
}
