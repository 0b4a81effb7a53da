/**
 * Whether a site's colours can be read (WCAG 2.2): body text on the background needs a contrast of 4.5:1
 * (1.4.3), and the primary colour, used for links and buttons on the background, 3:1 (1.4.11). A club picking
 * its colours on a Sunday night gets told which pair fails and by how much, before its members see it.
 */

/** The relative luminance of a #rrggbb colour (WCAG's definition, sRGB). */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two #rrggbb colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export const TEXT_CONTRAST = 4.5;
export const PRIMARY_CONTRAST = 3;

export interface SiteColours {
  primary: string;
  accent: string;
  background: string;
  text: string;
}

/** Problems by colour ("text", "primary"), each saying the ratio needed and the ratio chosen; empty when readable. */
export function colourProblems(colours: SiteColours): Partial<Record<keyof SiteColours, string>> {
  const problems: Partial<Record<keyof SiteColours, string>> = {};
  const text = contrastRatio(colours.text, colours.background);
  if (text < TEXT_CONTRAST) problems.text = `Text on the background needs a contrast of at least 4.5:1; these colours give ${floor1(text)}:1`;
  const primary = contrastRatio(colours.primary, colours.background);
  if (primary < PRIMARY_CONTRAST)
    problems.primary = `The primary colour on the background needs a contrast of at least 3:1 (links and buttons); these colours give ${floor1(primary)}:1`;
  return problems;
}

// Rounded down, so a ratio shown as 4.5 always passes.
const floor1 = (n: number) => (Math.floor(n * 10) / 10).toFixed(1);
