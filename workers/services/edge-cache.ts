/**
 * Answers shared by a crowd, kept in the edge's cache (the Workers Cache API, per data centre). Only for
 * answers that are the same for everyone who may ask and named by what they hold (a version in the key), so
 * a cached answer is never another caller's nor a stale one; the caller checks access before asking here.
 */

/** The cache's keys live under a host of our own, so no tenant's address can collide with them. */
const KEY_ORIGIN = "https://edge-cache.startline.internal";

/** `path` and `params` name the answer; the params are sorted so one answer has one key. */
export function edgeCacheKey(path: string, params: URLSearchParams): Request {
  const sorted = new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return new Request(`${KEY_ORIGIN}${path}?${sorted.toString()}`);
}

/**
 * The cached answer for `key`, or `build`'s, stored for `maxAgeSeconds` when `build` says it may be shared.
 * A cache that fails (or is not there) only costs the cache: the answer is built as if nothing was cached.
 */
export async function sharedAnswer(
  key: Request,
  maxAgeSeconds: number,
  build: () => Promise<{ response: Response; shared: boolean }>,
  waitUntil: (promise: Promise<unknown>) => void,
): Promise<Response> {
  const cache = edgeCache();
  const hit = await cache?.match(key).catch(() => undefined);
  if (hit) return withHeader(hit, "hit");
  const { response, shared } = await build();
  if (!shared || !cache || !response.ok) return response;
  const stored = new Response(response.body, response);
  stored.headers.set("Cache-Control", `public, max-age=${maxAgeSeconds}`);
  waitUntil(cache.put(key, stored.clone()).catch((error: unknown) => console.error("edge cache:", error)));
  return withHeader(stored, "miss");
}

function edgeCache(): Cache | null {
  // The Workers runtime's `caches.default` (the DOM's CacheStorage type, which the page code also sees, lacks it).
  return typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default;
}

/** Says whether the answer came from the cache (for benches and whoever debugs a page). */
function withHeader(response: Response, state: "hit" | "miss"): Response {
  const out = new Response(response.body, response);
  out.headers.set("X-Edge-Cache", state);
  return out;
}
