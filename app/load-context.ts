import type { Tenant } from "../tenants/resolve";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Env;
    tenant: Tenant;
    ctx: ExecutionContext;
  }
}
