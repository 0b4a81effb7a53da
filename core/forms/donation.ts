import { fail, firstText, ok, type FieldTypeModule, type ParseResult } from "./field-type";
import { formatMoneyWithSymbol } from "../money/money";
import { FORM_MESSAGES } from "./messages";
import { FORM_LIMITS, type Cents } from "./model";

/** Donation (money): the registrant types an amount in dollars; v and p are both that amount in cents. */

/**
 * Dollars as typed ("25", "25.5", "$1,000.00") to cents, rounded half up at the cent. Exponents,
 * words and misplaced commas are not numbers.
 */
export function parseDollars(text: string): ParseResult<Cents> {
  const match = /^(-)?\$?\s*(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] === "" && !match[3])) return fail(FORM_MESSAGES.inputNotNumber);
  const whole = Number((match[2] ?? "").replace(/,/g, "") || "0");
  const fraction = (match[3] ?? "").padEnd(3, "0");
  // Whole cents plus one when the third decimal rounds up; integer maths avoids 1.005 * 100 = 100.4999.
  const cents = whole * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  if (match[1] && cents > 0) return fail(FORM_MESSAGES.negativeAmount);
  if (!Number.isSafeInteger(cents) || cents > FORM_LIMITS.maxCents) return fail(FORM_MESSAGES.amountTooLarge);
  return ok(cents);
}

export const donationField: FieldTypeModule<Cents> = {
  type: "donation",
  isInput: true,
  legacyCodes: [15],
  parse(element, raw) {
    const text = firstText(raw);
    // Section 5: empty counts as 0.
    if (text === "") return ok(0);
    const amount = parseDollars(text);
    if (!amount.ok) return amount;
    const min = element.config.min_fee;
    // The minimum applies to an amount given; 0 means no donation, which a mandatory field refuses.
    if (min != null && amount.value !== null && amount.value > 0 && amount.value < min) return fail(FORM_MESSAGES.minimumAmount(min));
    return amount;
  },
  price: (_element, value) => Math.max(0, value ?? 0),
  display: (_element, value) => (value ? formatMoneyWithSymbol(value) : ""),
  isEmpty: (value) => value === null || value === 0,
};
