/**
 * Text for the standard PDF fonts, which draw only the WinAnsi (Windows-1252) character set: each character
 * becomes one byte, a letter outside the set loses its accent or is transliterated, anything else is "?".
 */
import { HELVETICA_BOLD_WIDTHS, HELVETICA_WIDTHS } from "./helvetica-widths";

export type PdfFont = "regular" | "bold";

/** Windows-1252's bytes 128-159 that hold characters (the rest of 32-255 is Latin-1). */
const CP1252_HIGH: Record<string, number> = {
  "€": 128,
  "‚": 130,
  ƒ: 131,
  "„": 132,
  "…": 133,
  "†": 134,
  "‡": 135,
  ˆ: 136,
  "‰": 137,
  Š: 138,
  "‹": 139,
  Œ: 140,
  Ž: 142,
  "‘": 145,
  "’": 146,
  "“": 147,
  "”": 148,
  "•": 149,
  "–": 150,
  "—": 151,
  "˜": 152,
  "™": 153,
  š: 154,
  "›": 155,
  œ: 156,
  ž: 158,
  Ÿ: 159,
};

/** Letters with no decomposition to a WinAnsi letter (Polish, Croatian, Turkish, Nordic, Maltese …). */
const TRANSLITERATIONS: Record<string, string> = {
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ı: "i",
  İ: "I",
  ħ: "h",
  Ħ: "H",
  ŋ: "n",
  Ŋ: "N",
  ŀ: "l",
  Ŀ: "L",
  ĸ: "k",
  ſ: "s",
  "‐": "-",
  "‑": "-",
  "‒": "-",
  "―": "-",
  "−": "-",
  "′": "'",
  "″": '"',
  "‛": "'",
  "‟": '"',
};

const QUESTION = 63;

function winAnsiCode(char: string): number | null {
  const code = char.codePointAt(0) ?? 0;
  if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255)) return code;
  return CP1252_HIGH[char] ?? null;
}

/**
 * The text as a string of WinAnsi bytes (one char per byte, codes 32-255). Control characters and line
 * breaks become spaces; every other character outside the set is replaced, never dropped, so columns stay honest.
 */
export function toWinAnsi(text: string): string {
  // Most cells (times, bibs, Latin names) are already WinAnsi bytes: no work, and a big results PDF draws hundreds of thousands.
  if (/^[\x20-\x7e\xa0-\xff]*$/.test(text)) return text;
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = winAnsiCode(char);
    if (code !== null) {
      out += String.fromCharCode(code);
      continue;
    }
    const point = char.codePointAt(0) ?? 0;
    // Any white space (tab, line break, the Unicode spaces) is a plain space.
    if (point < 32 || (point >= 127 && point < 160) || /\s/u.test(char)) {
      out += " ";
      continue;
    }
    const bare = char.normalize("NFD").replace(/\p{M}/gu, "");
    const transliterated = TRANSLITERATIONS[char] ?? (bare !== char && bare !== "" ? bare : null);
    const codes = transliterated === null ? null : [...transliterated].map(winAnsiCode);
    out += codes && codes.every((c) => c !== null) ? String.fromCharCode(...(codes as number[])) : String.fromCharCode(QUESTION);
  }
  return out;
}

/** The width in points of WinAnsi bytes (from toWinAnsi) set in a font at a size. */
export function winAnsiWidth(bytes: string, font: PdfFont, size: number): number {
  const widths = font === "bold" ? HELVETICA_BOLD_WIDTHS : HELVETICA_WIDTHS;
  let total = 0;
  for (let i = 0; i < bytes.length; i++) total += widths[bytes.charCodeAt(i) - 32] ?? 0;
  return (total * size) / 1000;
}

/** The width in points of any text as the PDF will draw it. */
export function textWidth(text: string, font: PdfFont, size: number): number {
  return winAnsiWidth(toWinAnsi(text), font, size);
}

const ELLIPSIS = String.fromCharCode(133);

/** WinAnsi bytes of the text cut to fit `maxWidth`, ending in an ellipsis when cut. */
export function fitWinAnsi(text: string, font: PdfFont, size: number, maxWidth: number): string {
  const bytes = toWinAnsi(text);
  // A column sized to its widest cell must hold it, whatever the rounding of the sums.
  if (winAnsiWidth(bytes, font, size) <= maxWidth + 0.001) return bytes;
  const room = maxWidth - winAnsiWidth(ELLIPSIS, font, size);
  let end = bytes.length;
  while (end > 0 && winAnsiWidth(bytes.slice(0, end), font, size) > room) end--;
  return end === 0 ? "" : bytes.slice(0, end).trimEnd() + ELLIPSIS;
}
