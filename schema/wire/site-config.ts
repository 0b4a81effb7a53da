import * as z from "zod";
import { MEDIA_PATH } from "../../core/sites/images";

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Colours are written #rrggbb");

/** A whitelabel site's config column: its name, logo and colours. Defaults keep an incomplete config usable. */
export const siteConfigSchema = z.object({
  name: z.string().trim().min(1, "Enter the site's name").max(120, "A site's name is at most 120 characters"),
  tagline: z.string().max(200, "A tagline is at most 200 characters").optional(),
  // An uploaded logo is served from the site itself (/media/…, workers/media.ts); older configs may hold a URL.
  logoUrl: z.union([z.string().regex(MEDIA_PATH, "An uploaded logo's address"), z.url({ protocol: /^https$/ })]).optional(),
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
