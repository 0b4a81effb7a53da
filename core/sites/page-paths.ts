/**
 * Where a club's own page may live on its site (issue 26): a lowercase path that is not one of the product's
 * own addresses, so a page never hides the events, a race, sign-in or an administration page. Decision 0053.
 */

/** The first segments the product serves itself on a site's host (app/routes and the Worker's mounts). */
export const RESERVED_SEGMENTS = [
  "_admin",
  "_auth",
  "api",
  "assets",
  "auth",
  "build",
  "club",
  "data",
  "data-api",
  "dev",
  "_dev",
  "events",
  "favicon.ico",
  "invite",
  "login",
  "logout",
  "manage",
  "media",
  "newsletters",
  "oauth",
  "races",
  "racer",
  "rankings",
  "register",
  "registration",
  "results",
  "robots.txt",
  "series",
  "signup",
  "site",
  "timing",
  "timing-api",
  "webhooks",
  "welcome",
  ".well-known",
] as const;

const PATH = /^\/[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

export const PAGE_PATH_MESSAGES = {
  shape: "A page's address starts with / and is lowercase letters, digits, '.', '_' and '-', such as /about or /about/history",
  home: "The home page is the site's own; choose an address such as /about",
  reserved: (segment: string) => `/${segment} is one of the site's own addresses (events, races, sign-in…); choose another, such as /about`,
} as const;

/** Null when a page may live at `path`, or the message saying why not. */
export function pagePathProblem(path: string): string | null {
  if (path === "/") return PAGE_PATH_MESSAGES.home;
  const first = path.slice(1).split("/")[0]!.toLowerCase();
  if ((RESERVED_SEGMENTS as readonly string[]).includes(first)) return PAGE_PATH_MESSAGES.reserved(first);
  return !PATH.test(path) || path.length > 200 ? PAGE_PATH_MESSAGES.shape : null;
}

/** A typed address as a page path: trimmed, lowercase, one leading /, no trailing /. */
export function normalisePagePath(typed: string): string {
  const trimmed = typed.trim().toLowerCase().replace(/\/+$/, "");
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}
