// Secrets set with `wrangler secret put` are not in wrangler.toml, so `wrangler types` cannot see them.
declare namespace Cloudflare {
  interface Env {
    /** Encrypts TOTP secrets. Required in production; development uses a fixed key. */
    AUTH_SECRET?: string;
    /** Stripe's secret key (sk_…). Without it the manual provider (cash and cheque) is the only one. */
    STRIPE_SECRET_KEY?: string;
    /** Signs Stripe's webhook calls (whsec_…); events are refused without a valid signature. */
    STRIPE_WEBHOOK_SECRET?: string;
    /** The Connect webhook endpoint's secret (events on connected accounts), when it is not the same endpoint. */
    STRIPE_CONNECT_WEBHOOK_SECRET?: string;
    /** Where the Stripe API is, for the local fake (http://127.0.0.1:12111); unset means api.stripe.com. */
    STRIPE_API_BASE?: string;
    /** The Cloudflare for SaaS zone that holds clubs' custom hostnames (its id). Without it and the token, custom domains are off. */
    CLOUDFLARE_ZONE_ID?: string;
    /** An API token with SSL and Certificates Edit on that zone; sent only as a bearer token, never logged. */
    CLOUDFLARE_API_TOKEN?: string;
    /** Where the Cloudflare API is, for the local fake (http://127.0.0.1:12287/client/v4); unset means api.cloudflare.com. */
    CLOUDFLARE_API_BASE?: string;
  }
}
