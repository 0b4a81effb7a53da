/**
 * Bilingual labels (section 9: "Bilingual labels use tags for English and French"). Our format puts
 * each language after its tag in one string: `[en]English text[fr]Texte français`. Tags are matched
 * ignoring case; text before the first tag is the untagged default.
 */

export type Lang = "en" | "fr";

const TAG = /\[(en|fr)\]/gi;

/** The parts of a label by language; `untagged` is the text before any tag (all of it when none). */
export function splitLabel(text: string): { untagged: string; en?: string; fr?: string } {
  const parts: { untagged: string; en?: string; fr?: string } = { untagged: "" };
  const matches = [...text.matchAll(TAG)];
  parts.untagged = (matches.length === 0 ? text : text.slice(0, matches[0]?.index ?? 0)).trim();
  matches.forEach((match, i) => {
    const start = (match.index ?? 0) + match[0].length;
    const end = matches[i + 1]?.index ?? text.length;
    const lang = (match[1] ?? "").toLowerCase() as Lang;
    parts[lang] ??= text.slice(start, end).trim();
  });
  return parts;
}

export function hasLanguageTags(text: string): boolean {
  return new RegExp(TAG.source, "i").test(text);
}

/**
 * The label in `lang`, else the English part, else the untagged text; a label with only the other
 * language's part shows that part rather than nothing. Untagged labels come back whole.
 */
export function labelIn(text: string, lang: Lang): string {
  if (!hasLanguageTags(text)) return text;
  const parts = splitLabel(text);
  return parts[lang] || parts.en || parts.untagged || parts.fr || "";
}

/** Writes both languages in our tag format; a missing French part leaves the label English only. */
export function formatBilingual(en: string, fr?: string | null): string {
  return fr ? `[en]${en}[fr]${fr}` : en;
}
