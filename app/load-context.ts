import type { Tenant } from "../tenants/resolve";
import type { ValidSession } from "../workers/auth/sessions";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    env: Env;
    tenant: Tenant;
    ctx: ExecutionContext;
    /** The signed-in session on this host, or null. */
    session: ValidSession | null;
    now: number;
    /** This response's Content-Security-Policy nonce: Remix's inline scripts carry it (workers/security-headers.ts). */
    cspNonce: string;
  }
}
