// Secrets set with `wrangler secret put` are not in wrangler.toml, so `wrangler types` cannot see them.
declare namespace Cloudflare {
  interface Env {
    /** Encrypts TOTP secrets. Required in production; development uses a fixed key. */
    AUTH_SECRET?: string;
  }
}
