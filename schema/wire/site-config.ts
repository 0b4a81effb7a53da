import * as z from "zod";

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Colours are written #rrggbb");

/** A whitelabel site's config column: its name, logo and colours. Defaults keep an incomplete config usable. */
export const siteConfigSchema = z.object({
  name: z.string().trim().min(1).max(120),
  tagline: z.string().max(200).optional(),
  logoUrl: z.string().url().optional(),
  colours: z
    .object({
      primary: hexColour.default("#1d4ed8"),
      accent: hexColour.default("#f59e0b"),
      background: hexColour.default("#ffffff"),
      text: hexColour.default("#111827"),
    })
    .prefault({}),
});

export type SiteConfig = z.input<typeof siteConfigSchema>;
export type ParsedSiteConfig = z.output<typeof siteConfigSchema>;
