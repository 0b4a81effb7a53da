import type { Db } from "../schema/d1";
import type { Tenant } from "../tenants/resolve";

/** What every Worker handler receives: bindings, the resolved tenant, the database and the execution context. */
export interface RequestContext {
  env: Env;
  tenant: Tenant;
  db: Db;
  ctx: ExecutionContext;
}
