import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { newPasswordProblem } from "../../core/auth/password-policy";
import { normaliseTotpCode } from "../../core/auth/totp-code";
import type { AuthDeps, Failure } from "./attempts";
import { releaseGuess, reserveGuess } from "./failures";
import { sendSecurityNotice } from "./notices";
import { hashPassword, verifyPassword } from "./password";
import { requireFresh, type ReauthRequired, type SessionProof } from "./reauth";
import { deleteRecoveryCodes, makeRecoveryCodes } from "./recovery-codes";
import { verifySecondFactor } from "./second-factor";
import { revokeOtherSessions } from "./session-list";
import { disableTotp, isTotpEnabled, verifyTotpCode } from "./totp";
import { findUserById, setUserPassword } from "./users";

/**
 * The account owner's own changes to how they sign in. None trusts the session alone: each asks for the
 * current password, a code, or a sign-in within the last few minutes (ASVS 2.1.6, 3.7.1), and each tells
 * the owner by e-mail.
 */

const fail = (status: number, message: string): Failure => ({ ok: false, status, message });

async function ownerOf(deps: AuthDeps, session: SessionProof) {
  const user = await findUserById(deps.db, session.userId);
  if (!user) throw new Error("The session's user no longer exists");
  return user;
}

/** Checks a password typed as proof, counting a wrong one like a failed sign-in (so it cannot be guessed here). */
async function passwordProof(deps: AuthDeps, user: { id: string; passwordHash: string | null }, password: string): Promise<Failure | null> {
  const reservation = await reserveGuess(deps, user.id, "password");
  if (!reservation) return fail(429, authMessages.tooManyAttempts);
  if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) return fail(400, ourAuthMessages.currentPasswordWrong);
  await releaseGuess(deps.db, reservation);
  return null;
}

/**
 * Changes the password: the current one is required; an account without one needs a fresh sign-in instead.
 * Other sessions are signed out unless the owner unticks that.
 */
export async function changePassword(
  deps: AuthDeps,
  session: SessionProof,
  input: { current: string | null; password: string; signOutOthers: boolean },
): Promise<{ ok: true; signedOutOthers: boolean } | Failure | ReauthRequired> {
  const user = await ownerOf(deps, session);
  if (user.passwordHash) {
    const refused = await passwordProof(deps, user, input.current ?? "");
    if (refused) return refused;
  } else {
    const stale = requireFresh(session, deps.now);
    if (stale) return stale;
  }
  const problem = newPasswordProblem(input.password);
  if (problem) return fail(400, problem);
  await setUserPassword(deps.db, user.id, await hashPassword(input.password), deps.now);
  if (input.signOutOthers) await revokeOtherSessions(deps.db, user.id, session.id);
  await sendSecurityNotice(deps, user, { kind: "password-changed" });
  return { ok: true, signedOutOthers: input.signOutOthers };
}

/** Confirms two-factor set-up with a first code; returns the ten recovery codes to show once. */
export async function confirmTotpSetup(deps: AuthDeps, session: SessionProof, input: string): Promise<{ ok: true; codes: string[] } | Failure> {
  const code = normaliseTotpCode(input);
  if (!code) return fail(400, ourAuthMessages.codeFormat);
  if (!(await verifyTotpCode(deps.env, deps.db, session.userId, code, deps.now, { enabling: true }))) return fail(400, authMessages.incorrectCode);
  const codes = await makeRecoveryCodes(deps.db, session.userId, deps.now);
  await sendSecurityNotice(deps, await ownerOf(deps, session), { kind: "totp-on" });
  return { ok: true, codes };
}

/** Turns two-factor off with a current code, a recovery code or the password as proof. */
export async function turnOffTotp(deps: AuthDeps, session: SessionProof, proof: string): Promise<{ ok: true } | Failure> {
  const user = await ownerOf(deps, session);
  if (!(await isTotpEnabled(deps.db, user.id))) return { ok: true };
  if (!proof.trim()) return fail(400, ourAuthMessages.proofRequired);
  // A code and a password are both guessable: one try is reserved under the password counters, given back if right.
  const reservation = await reserveGuess(deps, user.id, "password");
  if (!reservation) return fail(429, authMessages.tooManyAttempts);
  const passed = (await verifySecondFactor(deps, user, proof)) !== null || (user.passwordHash !== null && (await verifyPassword(proof, user.passwordHash)));
  if (!passed) return fail(400, ourAuthMessages.proofWrong);
  await releaseGuess(deps.db, reservation);
  await disableTotp(deps.db, user.id);
  await deleteRecoveryCodes(deps.db, user.id);
  await sendSecurityNotice(deps, user, { kind: "totp-off" });
  return { ok: true };
}

/** Replaces the recovery codes ("make new codes"); needs a fresh sign-in. */
export async function newRecoveryCodes(deps: AuthDeps, session: SessionProof): Promise<{ ok: true; codes: string[] } | Failure | ReauthRequired> {
  const stale = requireFresh(session, deps.now);
  if (stale) return stale;
  if (!(await isTotpEnabled(deps.db, session.userId))) return fail(400, authMessages.errorVerifyingTotp);
  const codes = await makeRecoveryCodes(deps.db, session.userId, deps.now);
  await sendSecurityNotice(deps, await ownerOf(deps, session), { kind: "recovery-codes-new" });
  return { ok: true, codes };
}
