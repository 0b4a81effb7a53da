import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, eq, lt } from "drizzle-orm";
import { WEBAUTHN_CHALLENGE_TTL_MS } from "../../core/auth/constants";
import { authMessages, ourAuthMessages } from "../../core/auth/messages";
import { verifyAssertion, verifyRegistration, type PasskeyResponseJSON } from "../../core/auth/passkey/ceremony";
import { authenticationOptions, newChallenge, registrationOptions } from "../../core/auth/passkey/options";
import { passkeys, signInAttempts, webauthnChallenges, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";
import { originOf } from "./hosts";
import { createAttempt, verifyAttempt, type AuthDeps, type Failure, type VerifyReply } from "./attempts";
import { sendSecurityNotice } from "./notices";
import { isFresh, requireFresh, type ReauthRequired, type SessionProof } from "./reauth";
import { isTotpEnabled } from "./totp";
import { findUserById } from "./users";

const fail = (status: number, message: string): Failure => ({ ok: false, status, message });

/** The relying party is the tenant's own hostname and configured origin; request headers never decide it. */
function relyingParty(deps: AuthDeps) {
  return { rpID: deps.tenant.hostname, origin: originOf(deps.env, deps.tenant.hostname), rpName: deps.tenant.theme.name };
}

/**
 * Who may add a passkey to a user: the browser that has just verified a sign-in attempt for that user here
 * (the passkey offer comes before the session cookie exists), or that user signed in on this host with a
 * sign-in in the last few minutes ("reauth" when the session is older).
 */
export async function mayRegisterPasskey(
  db: Db,
  host: string,
  userId: string,
  proof: { session?: { userId: string; verifiedAt: number | null } | null; attemptToken?: string | null },
  now: number,
): Promise<"yes" | "no" | "reauth"> {
  // The user's own session decides when there is one, so an old attempt cookie cannot stand in for a fresh sign-in.
  if (proof.session?.userId === userId) return isFresh(proof.session, now) ? "yes" : "reauth";
  if (!proof.attemptToken) return "no";
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.tokenHash, hashToken(proof.attemptToken)) });
  return attempt && attempt.userId === userId && attempt.host === host && attempt.status === "verified" && !attempt.reauthSessionId && attempt.expiresAt > now
    ? "yes"
    : "no";
}

async function storeChallenge(db: Db, challenge: string, kind: "register" | "authenticate", domain: string, userId: string | null, now: number) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values({ id: crypto.randomUUID(), challenge, kind, domain, userId, expiresAt: now + WEBAUTHN_CHALLENGE_TTL_MS });
}

/** Takes the challenge a response answers out of storage: each challenge is good for one response only. */
async function takeChallenge(db: Db, clientDataJSON: string, kind: "register" | "authenticate", domain: string, now: number) {
  let challenge: string;
  try {
    challenge = (JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(clientDataJSON))) as { challenge?: string }).challenge ?? "";
  } catch {
    return null;
  }
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.kind, kind), eq(webauthnChallenges.domain, domain)))
    .returning();
  return row && row.expiresAt > now ? row : null;
}

export async function beginPasskeyRegistration(deps: AuthDeps, userId: string) {
  const user = await findUserById(deps.db, userId);
  if (!user) return fail(404, authMessages.invalidEmail);
  const { rpID, rpName } = relyingParty(deps);
  const existing = await deps.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.domain, rpID)));
  const options = registrationOptions({
    challenge: newChallenge(),
    rp: { id: rpID, name: rpName },
    user: { id: user.id, name: user.email, displayName: user.name },
    // The browser refuses to make a second passkey on an authenticator that holds one of these.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
  });
  await storeChallenge(deps.db, options.challenge, "register", rpID, userId, deps.now);
  return { ok: true as const, options };
}

export async function completePasskeyRegistration(deps: AuthDeps, userId: string, response: PasskeyResponseJSON) {
  const { rpID, origin } = relyingParty(deps);
  const user = await findUserById(deps.db, userId);
  if (!user) return fail(404, authMessages.invalidEmail);
  const challenge = await takeChallenge(deps.db, response.response.clientDataJSON, "register", rpID, deps.now);
  if (!challenge || challenge.userId !== userId) return fail(400, authMessages.passkeyCancelled);
  let credential;
  try {
    // Type, challenge, origin, rpIdHash, user presence, attestation format and the key (core/auth/passkey/ceremony.ts).
    credential = await verifyRegistration(response, { challenge: challenge.challenge, rp: { id: rpID, origin } });
  } catch {
    return fail(400, authMessages.passkeyCancelled);
  }
  const duplicate = await deps.db.query.passkeys.findFirst({ where: eq(passkeys.id, credential.id), columns: { id: true } });
  if (duplicate) return fail(409, authMessages.passkeyAlreadyRegistered);
  await deps.db.insert(passkeys).values({
    id: credential.id,
    userId,
    domain: rpID,
    publicKey: encodeBase64urlNoPadding(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports,
    createdAt: deps.now,
  });
  await sendSecurityNotice(deps, user, { kind: "passkey-added" });
  return { ok: true as const, verified: true, passkey_id: credential.id };
}

/**
 * Options for a passkey sign-in. For a known user with two-factor on, user verification is "required" (the
 * passkey must stand for both factors); otherwise "preferred", and the flag is checked after.
 */
export async function beginPasskeyAuthentication(deps: AuthDeps, userId: string | null) {
  const { rpID } = relyingParty(deps);
  let allowCredentials: { id: string; transports?: string[] }[] | undefined;
  let userVerification: "required" | "preferred" = "preferred";
  if (userId) {
    const own = await deps.db
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.userId, userId), eq(passkeys.domain, rpID)));
    if (own.length === 0) return fail(404, authMessages.noPasskeys);
    allowCredentials = own.map((p) => ({ id: p.id, transports: p.transports }));
    if (await isTotpEnabled(deps.db, userId)) userVerification = "required";
  }
  const options = authenticationOptions({ challenge: newChallenge(), rpId: rpID, allowCredentials, userVerification });
  await storeChallenge(deps.db, options.challenge, "authenticate", rpID, userId, deps.now);
  return { ok: true as const, options };
}

/**
 * Checks a passkey assertion and signs its owner in. The credential must be registered on this very
 * domain, belong to the user the challenge was made for (when one was named), and its counter must move on.
 * Without the UV flag it is one factor: a two-factor account then goes on to the code step. With
 * `reauthSession` it re-authenticates that session (same user only) instead of making a new one.
 */
export async function completePasskeyAuthentication(
  deps: AuthDeps,
  response: PasskeyResponseJSON,
  goto: string | null,
  reauthSession: { id: string; userId: string } | null = null,
): Promise<{ ok: true; reply: VerifyReply; attemptToken: string } | Failure> {
  const { rpID, origin } = relyingParty(deps);
  const challenge = await takeChallenge(deps.db, response.response.clientDataJSON, "authenticate", rpID, deps.now);
  if (!challenge) return fail(400, authMessages.passkeyFailed);
  const stored = await deps.db.query.passkeys.findFirst({ where: and(eq(passkeys.id, response.id), eq(passkeys.domain, rpID)) });
  if (!stored || (challenge.userId !== null && stored.userId !== challenge.userId)) return fail(400, authMessages.invalidCredential);
  let verification;
  try {
    // Type, challenge, origin, rpIdHash, user presence, user handle, counter and signature (core/auth/passkey/ceremony.ts).
    verification = await verifyAssertion(response, {
      challenge: challenge.challenge,
      rp: { id: rpID, origin },
      stored: { id: stored.id, publicKey: decodeBase64urlIgnorePadding(stored.publicKey), counter: stored.counter },
      userId: stored.userId,
    });
  } catch {
    return fail(400, authMessages.passkeyFailed);
  }
  await deps.db.update(passkeys).set({ counter: verification.newCounter, lastUsedAt: deps.now }).where(eq(passkeys.id, stored.id));
  if (reauthSession && reauthSession.userId !== stored.userId) return fail(400, ourAuthMessages.reauthWrongUser);
  const attempt = await createAttempt(deps, { userId: stored.userId, method: "password", goto, reauthSessionId: reauthSession?.id ?? null }, { proven: true });
  if (!attempt.ok) return attempt;
  const reply = await verifyAttempt(deps, attempt.attempt_id, { passkey: stored.id, userVerified: verification.userVerified });
  return { ok: true, reply, attemptToken: attempt.token };
}

export async function listPasskeys(db: Db, userId: string) {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId));
  return rows.map((p) => ({ id: p.id, domain: p.domain, created_at: p.createdAt, last_used: p.lastUsedAt }));
}

async function deletePasskey(db: Db, userId: string, passkeyId: string): Promise<boolean> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return removed.length === 1;
}

/** Removes one of the session user's own passkeys; needs a fresh sign-in, and tells the owner. */
export async function removePasskey(deps: AuthDeps, session: SessionProof, passkeyId: string): Promise<{ ok: true } | Failure | ReauthRequired> {
  const stale = requireFresh(session, deps.now);
  if (stale) return stale;
  if (!(await deletePasskey(deps.db, session.userId, passkeyId))) return fail(404, authMessages.failedToDeletePasskey);
  const user = await findUserById(deps.db, session.userId);
  if (user) await sendSecurityNotice(deps, user, { kind: "passkey-removed" });
  return { ok: true };
}
