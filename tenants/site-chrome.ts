import { localHref, type SiteLanguage } from "../core/sites/site-links";
import type { Theme } from "./theme";

export interface ChromeLink {
  label: string;
  href: string;
  current: boolean;
}

/** The header's menu and the footer in the visitor's language, worked out on the server so the page's script carries none of it. */
export function siteChrome(theme: Theme, lang: SiteLanguage, path: string) {
  const link = (item: { label: string; labelFr?: string; href: string }): ChromeLink => ({
    label: (lang === "fr" && item.labelFr) || item.label,
    href: localHref(item.href, lang),
    current: item.href === path,
  });
  const menu = theme.menu && theme.menu.length > 0 ? theme.menu : [{ label: "Events", labelFr: "Événements", href: "/events" }];
  return {
    lang,
    home: localHref("/", lang),
    menu: menu.map(link),
    // The other language's address of this very page, when the site offers French.
    switchTo: theme.french ? (lang === "fr" ? { label: "English", lang: "en", href: path } : { label: "Français", lang: "fr", href: `${path}?lang=fr` }) : null,
    footerText: (lang === "fr" && theme.footer?.textFr) || theme.footer?.text || "",
    footerLinks: (theme.footer?.links ?? []).map(link),
  };
}

export type SiteChrome = ReturnType<typeof siteChrome>;
