/**
 * A club's GST/HST registration number (decision 0058): the Canada Revenue Agency's business number (nine
 * digits) with its GST/HST program account, "RT" and four digits, written "123456789 RT0001" on receipts.
 * Typed with or without spaces, hyphens or lower case; stored in that one written form.
 */
import * as z from "zod";

export const TAX_NUMBER_MESSAGE = "Enter the GST/HST number as 9 digits, RT and 4 digits, such as 123456789 RT0001";

/** The number as written on receipts, or null when it is not a GST/HST number. */
export function normaliseTaxNumber(raw: string): string | null {
  const match = /^(\d{9})RT(\d{4})$/.exec(raw.replace(/[\s-]/g, "").toUpperCase());
  return match ? `${match[1]} RT${match[2]}` : null;
}

/** The club's field: blank is none; anything else must be a GST/HST number. */
export const taxNumberSchema = z
  .string()
  .max(40, TAX_NUMBER_MESSAGE)
  .transform((raw, ctx) => {
    if (raw.trim() === "") return null;
    const number = normaliseTaxNumber(raw);
    if (!number) ctx.addIssue({ code: "custom", message: TAX_NUMBER_MESSAGE });
    return number ?? z.NEVER;
  });

export const QST_NUMBER_MESSAGE = "Enter the QST number as 10 digits, TQ and 4 digits, such as 1234567890 TQ0001";

/** A Quebec club's QST number (Revenu Québec: ten digits, "TQ" and four digits), as written on receipts, or null. */
export function normaliseQstNumber(raw: string): string | null {
  const match = /^(\d{10})TQ(\d{4})$/.exec(raw.replace(/[\s-]/g, "").toUpperCase());
  return match ? `${match[1]} TQ${match[2]}` : null;
}

/** The club's second tax number (decision 0061): blank is none; anything else must be a QST number. */
export const qstNumberSchema = z
  .string()
  .max(40, QST_NUMBER_MESSAGE)
  .transform((raw, ctx) => {
    if (raw.trim() === "") return null;
    const number = normaliseQstNumber(raw);
    if (!number) ctx.addIssue({ code: "custom", message: QST_NUMBER_MESSAGE });
    return number ?? z.NEVER;
  });
