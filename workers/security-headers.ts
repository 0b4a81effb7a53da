/**
 * The security headers of every response the Worker makes, set in one place (issue 28, docs/security.md).
 * Static files get the same fixed headers from public/_headers, since the assets layer answers them first.
 */

/** A fresh nonce per HTML response: the only inline scripts that run are the ones Remix writes with it. */
export function newCspNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of a page. Scripts: our own files and nonce'd inline ones, nothing injected. Styles allow inline
 * attributes because tenant themes are CSS variables on <html>; styles cannot run code. Frames: none, so no
 * page (the OAuth consent page above all) can be framed for clickjacking. Forms are left free: sign-in hands
 * a session to another tenant host and payment redirects to Stripe Checkout, both by form post.
 */
export function pagePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** What an API answer, a redirect or a plain-text error needs: nothing may load from it or frame it. */
export const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** A page of ours with no scripts at all (the unknown-host page): inline styles only. */
export const STATIC_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

/** Two years, the preload list's minimum; only ever sent over https, where browsers honour it. */
const HSTS = "max-age=63072000; includeSubDomains";

// The camera stays ours for check-in scanning; nothing else a page of ours uses.
const PERMISSIONS_POLICY = "camera=(self), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()";

export interface HeaderChoice {
  /** The request came over https (production); HSTS is sent only then. */
  https: boolean;
  /** The page's CSP; a Remix HTML response passes its nonce'd policy, everything else gets NON_PAGE_POLICY. */
  policy?: string;
}

/** Sets the security headers on a mutable Headers, overwriting what a handler may have set. */
export function applySecurityHeaders(headers: Headers, choice: HeaderChoice): void {
  const isHtml = (headers.get("Content-Type") ?? "").startsWith("text/html");
  headers.set("Content-Security-Policy", choice.policy ?? (isHtml ? STATIC_PAGE_POLICY : NON_PAGE_POLICY));
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", PERMISSIONS_POLICY);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (choice.https) headers.set("Strict-Transport-Security", HSTS);
}
