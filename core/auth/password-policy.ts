import { commonPasswords } from "./common-passwords";
import { PASSWORD_MIN_LENGTH } from "./constants";
import { authMessages, ourAuthMessages } from "./messages";

const common = new Set(commonPasswords);

/** Why a new password is refused, or null when it may be used (spec section 5). */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return ourAuthMessages.passwordTooShort;
  if (common.has(password.toLowerCase())) return authMessages.passwordNotAllowed;
  return null;
}

/** The form check: the password's own problem first, then the confirmation. */
export function newPasswordFormProblem(password: string, confirmation: string): string | null {
  return newPasswordProblem(password) ?? (password === confirmation ? null : authMessages.passwordsDoNotMatch);
}
