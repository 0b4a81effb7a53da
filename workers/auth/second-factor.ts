import { normaliseRecoveryCode } from "../../core/auth/recovery-code";
import { normaliseTotpCode } from "../../core/auth/totp-code";
import type { NoticeDeps } from "./notices";
import { sendSecurityNotice } from "./notices";
import { consumeRecoveryCode } from "./recovery-codes";
import { verifyTotpCode } from "./totp";

/**
 * Checks what was typed at the code step: a 6-digit code from the app, or one recovery code (used up, and
 * the owner told). Returns which one passed, or null.
 */
export async function verifySecondFactor(
  deps: NoticeDeps,
  user: { id: string; email: string; name: string },
  input: string,
): Promise<"totp" | "recovery" | null> {
  const code = normaliseTotpCode(input);
  if (code) return (await verifyTotpCode(deps.env, deps.db, user.id, code, deps.now)) ? "totp" : null;
  if (!normaliseRecoveryCode(input)) return null;
  const remaining = await consumeRecoveryCode(deps.db, user.id, input, deps.now);
  if (remaining === null) return null;
  await sendSecurityNotice(deps, user, { kind: "recovery-code-used", remaining });
  return "recovery";
}
