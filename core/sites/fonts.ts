/**
 * A site's fonts (issue 26): a short list of system font stacks, so a page loads no font file from anywhere
 * (the CSP allows none, and a font host would learn who reads the club's site). Decision 0053.
 */
export const FONT_CHOICES = {
  system: { label: "System (the reader's own interface font)", stack: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  humanist: { label: "Humanist sans-serif", stack: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif' },
  geometric: { label: "Geometric sans-serif", stack: 'Avenir, Montserrat, Corbel, "URW Gothic", source-sans-pro, sans-serif' },
  classical: { label: "Classical serif", stack: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, serif' },
  oldstyle: { label: "Old-style serif", stack: '"Iowan Old Style", "Palatino Linotype", "URW Palladio L", P052, serif' },
  rounded: { label: "Rounded", stack: 'ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", Calibri, sans-serif' },
} as const;

export type FontKey = keyof typeof FONT_CHOICES;
export const FONT_KEYS = Object.keys(FONT_CHOICES) as [FontKey, ...FontKey[]];
export const DEFAULT_FONT: FontKey = "system";

/** The CSS font-family for a stored choice; an unknown one (an older or hand-edited config) is the system font. */
export function fontStackOf(key: string | undefined): string {
  return key && key in FONT_CHOICES ? FONT_CHOICES[key as FontKey].stack : FONT_CHOICES[DEFAULT_FONT].stack;
}
