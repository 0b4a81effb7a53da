import { hashToken } from "../auth/crypto";

/** The binding's period (wrangler.toml [[ratelimits]]): a refused caller may try again after it. */
const PERIOD_S = 60;

/**
 * The data API's request rate, counted by Cloudflare's rate-limiting bindings rather than D1, so an API read
 * stays a read (docs/security.md). Each token has its own budget (DATA_API_TOKEN_LIMIT); each client address
 * has a larger one (DATA_API_CLIENT_LIMIT), so sending made-up tokens cannot dodge the limit. Keys are hashes:
 * no token or address is handed to the limiter. Null means go ahead.
 */
export async function dataApiRateLimited(env: Env, authorization: string | null, clientKey: string): Promise<{ retryAfterSeconds: number } | null> {
  const checks = [env.DATA_API_CLIENT_LIMIT.limit({ key: clientKey })];
  if (authorization) checks.push(env.DATA_API_TOKEN_LIMIT.limit({ key: `token:${hashToken(authorization).slice(0, 32)}` }));
  const outcomes = await Promise.all(checks);
  if (outcomes.every((o) => o.success)) return null;
  console.warn("Throttled: data API", { clientKey, byToken: outcomes.length > 1 && !outcomes[1]!.success });
  return { retryAfterSeconds: PERIOD_S };
}
