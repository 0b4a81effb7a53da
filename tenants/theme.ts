import { fontStackOf } from "../core/sites/fonts";
export { themeStyleVariables } from "./theme-style";
import { siteConfigSchema, type ParsedSiteConfig } from "../schema/wire/site-config";

export interface Theme {
  name: string;
  tagline?: string;
  logoUrl?: string;
  colours: ParsedSiteConfig["colours"];
  font?: ParsedSiteConfig["font"];
  /** The font's CSS stack, resolved on the server: the pages' script does not carry the table of fonts. Without one, the system font (app.css). */
  fontStack?: string;
  menu?: ParsedSiteConfig["menu"];
  footer?: ParsedSiteConfig["footer"];
  french?: boolean;
}

/** The platform's own look, used on the main and super-admin hosts. */
export const platformTheme: Theme = {
  name: "Startline",
  tagline: "Registration, timing and results for sports clubs and race organisers",
  colours: { primary: "#0f766e", accent: "#f97316", background: "#ffffff", text: "#111827" },
};

/**
 * A site's theme from its stored config. A config that no longer parses falls back to the platform colours
 * under the site's hostname rather than failing the whole site.
 */
export function themeFromSiteConfig(config: unknown, hostname: string): Theme {
  const parsed = siteConfigSchema.safeParse(config);
  if (!parsed.success) return { ...platformTheme, name: hostname, tagline: undefined };
  const { name, tagline, logoUrl, colours, font, menu, footer, french } = parsed.data;
  return { name, tagline, logoUrl, colours, font, fontStack: fontStackOf(font), menu, footer, french };
}
