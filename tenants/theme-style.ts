import type { Theme } from "./theme";

/** CSS custom properties for a theme, set on the page root (in the browser too, so nothing here needs a table). */
export function themeStyleVariables(theme: Pick<Theme, "colours" | "fontStack">): Record<string, string> {
  return {
    "--colour-primary": theme.colours.primary,
    "--colour-accent": theme.colours.accent,
    "--colour-background": theme.colours.background,
    "--colour-text": theme.colours.text,
    ...(theme.fontStack ? { "--font-body": theme.fontStack } : {}),
  };
}
