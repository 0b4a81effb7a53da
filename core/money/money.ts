/**
 * Money as integer cents (platform.md section 9: totals rounded to cents, money shown with two decimals).
 * Only rounding, percentages, formatting and parsing live here; what a cart costs is core/registration/pricing.
 */

/** Integer cents. */
export type Cents = number;

/**
 * A fractional amount of cents rounded to whole cents, half away from zero (0.5 → 1, -0.5 → -1).
 * The value is first cut to 15 significant digits so float noise (99.94999999999999 for 99.95) cannot flip a half.
 */
export function roundCents(x: number): Cents {
  const magnitude = Math.round(Number(Math.abs(x).toPrecision(15)));
  // + 0 turns -0 into 0, so a rounded-away negative compares equal to zero everywhere.
  return (x < 0 ? -magnitude : magnitude) + 0;
}

/** Percents are held to 6 decimals (14.975% is exactly 14_975_000 millionths), so percentOf is exact. */
const PERCENT_SCALE = 1_000_000n;
const PERCENT_DIVISOR = 100n * PERCENT_SCALE;

/** `percent` of `cents`, rounded half away from zero: 5% of 1999 is 99.95, so 100. */
export function percentOf(cents: Cents, percent: number): Cents {
  assertFinite(cents, "cents");
  assertFinite(percent, "percent");
  const numerator = BigInt(roundCents(cents)) * BigInt(Math.round(percent * Number(PERCENT_SCALE)));
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / PERCENT_DIVISOR;
  if ((magnitude % PERCENT_DIVISOR) * 2n >= PERCENT_DIVISOR) quotient += 1n;
  return (negative ? -Number(quotient) : Number(quotient)) + 0;
}

/** "1234.00", "12.50", "-3.00": two decimals, no symbol, no thousands separators. */
export function formatMoney(cents: Cents): string {
  assertFinite(cents, "cents");
  const rounded = roundCents(cents);
  const magnitude = Math.abs(rounded);
  return `${rounded < 0 ? "-" : ""}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`;
}

const CURRENCY_SYMBOLS: Record<string, string> = { CAD: "$", USD: "$", AUD: "$", NZD: "$", EUR: "€", GBP: "£" };

/** "$12.50", "-$3.00"; a currency without a known symbol is written as its code: "CHF 12.50". */
export function formatMoneyWithSymbol(cents: Cents, currency = "CAD"): string {
  const plain = formatMoney(cents);
  const negative = plain.startsWith("-");
  const digits = negative ? plain.slice(1) : plain;
  const symbol = CURRENCY_SYMBOLS[currency.toUpperCase()];
  return `${negative ? "-" : ""}${symbol ?? `${currency} `}${digits}`;
}

/** An optional "-", an optional "$", whole units, and at most two decimals. */
const MONEY_TEXT = /^(-)?\s*\$?\s*(\d*)(?:\.(\d{0,2}))?$/;

/**
 * What a person typed as an amount, in cents: "25", "25.5", "25.50", "$25.50" and ".50" are accepted;
 * more than two decimals, thousands separators, exponents and blanks give null. A leading "-" is
 * accepted so formatMoney's output reads back; callers that need a non-negative amount check it.
 */
export function parseMoney(text: string): Cents | null {
  const match = MONEY_TEXT.exec(text.trim());
  if (match === null) return null;
  const [, minus, whole = "", fraction = ""] = match;
  if (whole === "" && fraction === "") return null;
  const cents = Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return (minus === undefined ? cents : -cents) + 0;
}

function assertFinite(value: number, name: string): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
}
