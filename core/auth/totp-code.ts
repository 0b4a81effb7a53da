import { TOTP_DIGITS } from "./constants";

/**
 * A typed or pasted two-factor code as exactly 6 digits, or null. Pasting from an authenticator often
 * brings spaces or a dash in the middle ("123 456"); those are dropped, anything else is refused.
 */
export function normaliseTotpCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, "");
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code) ? code : null;
}
