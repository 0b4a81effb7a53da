/**
 * Why a Worker that says it is production must not serve, or null. Development settings in production would
 * put every user's sign-in links on /dev/mail (MAIL_MODE=capture), sign cookies with the public development
 * secret, build http links, or send payments or custom domains to a fake.
 */
export function productionMisconfiguration(env: Env): string | null {
  if (env.ENVIRONMENT !== "production") return null;
  if (env.MAIL_MODE !== "send") return `MAIL_MODE is "${env.MAIL_MODE}"; production needs "send"`;
  if (env.PUBLIC_SCHEME !== "https") return `PUBLIC_SCHEME is "${env.PUBLIC_SCHEME}"; production needs "https"`;
  if (!env.AUTH_SECRET || env.AUTH_SECRET.length < 32) return "AUTH_SECRET is missing or shorter than 32 characters (wrangler secret put AUTH_SECRET)";
  if (env.STRIPE_API_BASE) return "STRIPE_API_BASE is set; production talks to Stripe itself";
  if (env.CLOUDFLARE_API_BASE) return "CLOUDFLARE_API_BASE is set; production registers custom domains with Cloudflare itself";
  return null;
}
