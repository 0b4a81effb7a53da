/**
 * What an application may register (platform.md section 3, APIApplication): limits and the redirect URI rule,
 * shared by the /manage/apps pages and the data API's APIApplication class so both refuse the same things.
 */

export const APP_LIMITS = { name: 200, description: 2000, redirectUris: 20, redirectUri: 2000 } as const;

/** Why a redirect URI cannot be registered, or null when it can. URIs are matched exactly, so none is rewritten. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > APP_LIMITS.redirectUri) return `A redirect URI may be at most ${APP_LIMITS.redirectUri} characters`;
  if (/\s/.test(uri)) return `"${uri}" must not contain spaces`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URL; it must start with https://`;
  }
  if (!/^https?:\/\/[^/?#]/i.test(uri)) return `"${uri}" must be an http(s) URL such as https://example.com/callback`;
  // A fragment never reaches the server, so the code in it would be lost (RFC 6749 3.1.2).
  if (uri.includes("#")) return `"${uri}" must not contain a fragment (#…)`;
  if (url.username || url.password) return `"${uri}" must not contain a user name or password`;
  // Plain http is only safe where the traffic never leaves the machine (RFC 8252 7.3).
  if (url.protocol === "http:" && url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
    return `"${uri}" must use https; http is allowed only for 127.0.0.1 and localhost`;
  }
  return null;
}
