/**
 * Links on a club's site (issue 26): its menu, its footer, and the links inside a page's text. A link is a
 * path on the site itself or an https address, never javascript:, data: or plain http. Decision 0053.
 */

/** At most this many menu items (and footer links): more do not fit a phone's header. */
export const MAX_MENU_ITEMS = 8;

export const LINK_MESSAGE = "A link is a path on this site (starting with /) or an https:// address";

const SITE_PATH = /^\/(?!\/)[^\s\\]*$/;

/** Null when `href` may be linked from the site, or the message saying what a link may be. */
export function siteLinkProblem(href: string): string | null {
  if (SITE_PATH.test(href)) return null;
  try {
    const url = new URL(href);
    return url.protocol === "https:" && url.hostname !== "" ? null : LINK_MESSAGE;
  } catch {
    return LINK_MESSAGE;
  }
}

/** The list with item `at` moved one place up (or down), or unchanged when it cannot move. */
export function moveItem<T>(items: readonly T[], at: number, direction: "up" | "down"): T[] {
  const to = direction === "up" ? at - 1 : at + 1;
  const out = [...items];
  if (!Number.isInteger(at) || at < 0 || at >= out.length || to < 0 || to >= out.length) return out;
  [out[at], out[to]] = [out[to]!, out[at]!];
  return out;
}

/** A run of a paragraph: plain text, or a link written [label](href) whose href is a site link. */
export type TextRun = { text: string } | { text: string; href: string };

const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** A page text as paragraphs (a blank line starts one) of runs; a link whose address is not allowed stays text. */
export function paragraphsOf(text: string): TextRun[][] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      const runs: TextRun[] = [];
      let last = 0;
      for (const match of p.matchAll(LINK)) {
        const [whole, label, href] = match;
        if (siteLinkProblem(href!) !== null) continue;
        if (match.index > last) runs.push({ text: p.slice(last, match.index) });
        runs.push({ text: label!, href: href! });
        last = match.index + whole.length;
      }
      if (last < p.length) runs.push({ text: p.slice(last) });
      return runs;
    });
}

export type SiteLanguage = "en" | "fr";

/** The visitor's language: French only when the site offers it and the address asks for it (?lang=fr). */
export function languageOf(frenchEnabled: boolean, asked: string | null): SiteLanguage {
  return frenchEnabled && asked === "fr" ? "fr" : "en";
}

/** A site link in the visitor's language: French keeps ?lang=fr on the site's own paths; other sites are left alone. */
export function localHref(href: string, lang: SiteLanguage): string {
  if (lang === "en" || !href.startsWith("/")) return href;
  const [path, hash] = href.split("#", 2) as [string, string | undefined];
  const joined = `${path}${path.includes("?") ? "&" : "?"}lang=fr`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}
