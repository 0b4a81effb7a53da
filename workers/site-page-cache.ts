/**
 * A site's public pages from the edge cache (issue 26, decision 0053): anonymous GETs of the home page, the
 * events list and the club's own pages are kept in the Cache API under the site's content version
 * (workers/services/site-content.ts), so a change to the site shows on the next request and nothing is purged.
 * Never for a request with cookies (a signed-in visitor, a cart) nor an answer that sets one.
 */
import { pagePathProblem } from "../core/sites/page-paths";
import type { Db } from "../schema/d1";
import type { Tenant } from "../tenants/resolve";
import { edgeCacheKey, sharedAnswer } from "./services/edge-cache";
import { siteVersion } from "./services/site-content";

/** A bound for what the version does not name: races on the home page, an event turning past at midnight. */
export const SITE_PAGE_MAX_AGE_SECONDS = 60;

/** The nonce the stored page was drawn with travels with it, inside the cache only (each answer gets its own). */
const NONCE_HEADER = "X-Startline-Page-Nonce";
/** The page's own Cache-Control for browsers (the events list's, decision 0046), kept beside the edge's. */
const BROWSER_CACHE_HEADER = "X-Startline-Browser-Cache";

/** Whether this request may be answered from (and stored in) the shared cache. */
export function isCacheableSiteRequest(request: Request, tenant: Tenant): tenant is Extract<Tenant, { kind: "site" }> {
  if (tenant.kind !== "site" || request.method !== "GET" || request.headers.has("Cookie") || request.headers.has("Authorization")) return false;
  const url = new URL(request.url);
  // Only the language may vary a cached page; any other query (a notice, Remix's _data) is answered fresh.
  if ([...url.searchParams.keys()].some((key) => key !== "lang")) return false;
  const path = url.pathname;
  // The public ranking lists too (decision 0064): a new result shows within the cache's minute.
  return path === "/" || path === "/events" || path === "/rankings" || path.startsWith("/rankings/") || pagePathProblem(path) === null;
}

/**
 * The page for a cacheable request: the cached one of this site version, or `render`'s (stored when it is a
 * 200 HTML page with no cookie). Every answer carries this request's own `nonce`: a cached page's scripts are
 * rewritten to it, since a nonce shared by every visitor of a cached page is one an injection could read and reuse.
 */
export async function cachedSitePage(
  db: Db,
  request: Request,
  site: { siteId: string; version: number },
  nonce: string,
  render: (nonce: string) => Promise<Response>,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<Response> {
  const version = await siteVersion(db, site.siteId);
  // The look comes from this isolate's short-lived host cache: a page drawn with an older one is never stored.
  if (version === null || version !== site.version) return render(nonce);
  const url = new URL(request.url);
  const lang = url.searchParams.get("lang");
  const key = edgeCacheKey(`/sites/${site.siteId}/v${version}${url.pathname}`, new URLSearchParams(lang ? { lang } : {}));
  const response = await sharedAnswer(
    key,
    SITE_PAGE_MAX_AGE_SECONDS,
    async () => {
      const page = await render(nonce);
      const shared = page.status === 200 && !page.headers.has("Set-Cookie") && (page.headers.get("Content-Type") ?? "").startsWith("text/html");
      if (shared) {
        page.headers.set(NONCE_HEADER, nonce);
        page.headers.set(BROWSER_CACHE_HEADER, page.headers.get("Cache-Control") ?? "no-cache");
      }
      return { response: page, shared };
    },
    waitUntil,
  );
  const stored = response.headers.get(NONCE_HEADER);
  // With no word of its own the browser asks again each time, so its next request sees a change; the edge keeps the copy.
  const browser = response.headers.get(BROWSER_CACHE_HEADER);
  if (browser) response.headers.set("Cache-Control", browser);
  response.headers.delete(NONCE_HEADER);
  response.headers.delete(BROWSER_CACHE_HEADER);
  return stored === null || stored === nonce ? response : withNonce(response, stored, nonce);
}

/** The page with every `nonce` attribute drawn as `stored` carrying `fresh` instead (streamed, not buffered). */
function withNonce(response: Response, stored: string, fresh: string): Response {
  return new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        if (element.getAttribute("nonce") === stored) element.setAttribute("nonce", fresh);
      },
    })
    .transform(response);
}
