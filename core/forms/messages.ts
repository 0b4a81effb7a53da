import { formatMoneyWithSymbol } from "../money/money";

/**
 * What a registrant sees when a form value is refused. The spec's messages (platform.md section 5)
 * are word for word, the date message's two spaces included; the rest are marked as our wording.
 */
export const FORM_MESSAGES = {
  invalidDate: "Invalid Date.  Dates should be in the format YYYY-MM-DD",
  invalidEmail: "Email addresses should be in the format name@host. You can enter multiple addresses, separated by a space or comma.",
  invalidPhone: "Phone numbers should be in the format 123-456-7890",
  /** Typed into a donation or number field. */
  inputNotNumber: "Input must be a number",
  /** A stored number value (data API, imports) that is not numeric. */
  valueNotNumber: "The value must be a number",
  /** Followed by the codes in list order (Canada first), joined by ", ". */
  invalidProvince: (codes: readonly string[]) => `Invalid province. Possible options are: ${codes.join(", ")}`,
  noSuchOption: "No such option",
  // not in the spec: our wording
  required: "This field is required",
  // not in the spec: our wording
  soldOut: "Sold out",
  // not in the spec: our wording
  invalidCountry: "No such country",
  // not in the spec: our wording
  negativeAmount: "The amount cannot be negative",
  // not in the spec: our wording
  amountTooLarge: "The amount is too large",
  // not in the spec: our wording
  minimumAmount: (minCents: number) => `The minimum amount is ${formatMoneyWithSymbol(minCents)}`,
  // not in the spec: our wording
  numberRange: (min: number | null | undefined, max: number | null | undefined) =>
    min != null && max != null
      ? `The value must be between ${min} and ${max}`
      : min != null
        ? `The value must be at least ${min}`
        : `The value must be at most ${max}`,
  // not in the spec: our wording
  textTooLong: "This text is too long",
  // not in the spec: our wording
  invalidUpload: "The uploaded file could not be found. Please upload it again.",
  // not in the spec: our wording
  unknownDiscount: (codes: readonly string[]) => `Unknown discount code${codes.length > 1 ? "s" : ""}: ${codes.join(", ")}`,
  // not in the spec: our wording
  // not in the spec: our wording
  membershipDetails: (missing: readonly string[]) => `A membership needs the member's ${missing.join(", ")}`,
  tooManyCodes: "Too many discount codes",
} as const;
