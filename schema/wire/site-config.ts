import * as z from "zod";
import { DEFAULT_FONT, FONT_KEYS } from "../../core/sites/fonts";
import { MEDIA_PATH } from "../../core/sites/images";
import { MAX_MENU_ITEMS, siteLinkProblem } from "../../core/sites/site-links";
import { homeBlocksSchema } from "./page-blocks";

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Colours are written #rrggbb");

const linkLabel = z.string().trim().min(1, "Enter the link's label").max(40, "A link's label is at most 40 characters");

/** A menu or footer link: its label (and its French label), and a site path or an https address. */
export const siteLinkSchema = z.object({
  label: linkLabel,
  labelFr: linkLabel.optional(),
  href: z
    .string()
    .trim()
    .superRefine((href, ctx) => {
      const problem = siteLinkProblem(href);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
export type SiteLink = z.output<typeof siteLinkSchema>;

const links = z.array(siteLinkSchema).max(MAX_MENU_ITEMS, `At most ${MAX_MENU_ITEMS} links`);
const footerText = z.string().max(500, "The footer text is at most 500 characters");

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
  /** A system font stack (core/sites/fonts.ts): no font file is ever loaded. */
  font: z.enum(FONT_KEYS, "Choose one of the listed fonts").default(DEFAULT_FONT),
  menu: links.default([]),
  footer: z.object({ text: footerText.default(""), textFr: footerText.optional(), links: links.default([]) }).prefault({}),
  /** English is always on; French beside it when the club enables it (decision 0053). */
  french: z.boolean().default(false),
  /** The home page's blocks; absent or empty, the home page is the tagline and the upcoming races (decision 0056). */
  home: homeBlocksSchema.optional(),
});

export type SiteConfig = z.input<typeof siteConfigSchema>;
export type ParsedSiteConfig = z.output<typeof siteConfigSchema>;
