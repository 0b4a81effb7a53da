import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, eq, lt } from "drizzle-orm";
import { WEBAUTHN_CHALLENGE_TTL_MS } from "../../core/auth/constants";
import { authMessages } from "../../core/auth/messages";
import { passkeys, signInAttempts, webauthnChallenges, type Db } from "../../schema/d1";
import { hashToken } from "./crypto";
import { originOf } from "./hosts";
import { createAttempt, verifyAttempt, type AuthDeps, type Failure, type VerifyReply } from "./attempts";
import { findUserById } from "./users";

const fail = (status: number, message: string): Failure => ({ ok: false, status, message });

/** The relying party is the tenant's own hostname and configured origin; request headers never decide it. */
function relyingParty(deps: AuthDeps) {
  return { rpID: deps.tenant.hostname, origin: originOf(deps.env, deps.tenant.hostname), rpName: deps.tenant.theme.name };
}

/**
 * Who may add a passkey to a user: that user signed in on this host, or the browser that has just verified
 * a sign-in attempt for that user here (the passkey offer comes before the session cookie exists).
 */
export async function mayRegisterPasskey(db: Db, host: string, userId: string, proof: { sessionUserId?: string | null; attemptToken?: string | null }): Promise<boolean> {
  if (proof.sessionUserId === userId) return true;
  if (!proof.attemptToken) return false;
  const attempt = await db.query.signInAttempts.findFirst({ where: eq(signInAttempts.tokenHash, hashToken(proof.attemptToken)) });
  return Boolean(attempt && attempt.userId === userId && attempt.host === host && attempt.status === "verified");
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
  const existing = await deps.db.select().from(passkeys).where(and(eq(passkeys.userId, userId), eq(passkeys.domain, rpID)));
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await storeChallenge(deps.db, options.challenge, "register", rpID, userId, deps.now);
  return { ok: true as const, options };
}

export async function completePasskeyRegistration(deps: AuthDeps, userId: string, response: RegistrationResponseJSON) {
  const { rpID, origin } = relyingParty(deps);
  const challenge = await takeChallenge(deps.db, response.response.clientDataJSON, "register", rpID, deps.now);
  if (!challenge || challenge.userId !== userId) return fail(400, authMessages.passkeyCancelled);
  let verification;
  try {
    verification = await verifyRegistrationResponse({ response, expectedChallenge: challenge.challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
  } catch {
    return fail(400, authMessages.passkeyCancelled);
  }
  if (!verification.verified) return fail(400, authMessages.passkeyCancelled);
  const { credential } = verification.registrationInfo;
  const duplicate = await deps.db.query.passkeys.findFirst({ where: eq(passkeys.id, credential.id), columns: { id: true } });
  if (duplicate) return fail(409, authMessages.passkeyAlreadyRegistered);
  await deps.db.insert(passkeys).values({
    id: credential.id,
    userId,
    domain: rpID,
    publicKey: encodeBase64urlNoPadding(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    createdAt: deps.now,
  });
  return { ok: true as const, verified: true, passkey_id: credential.id };
}

export async function beginPasskeyAuthentication(deps: AuthDeps, userId: string | null) {
  const { rpID } = relyingParty(deps);
  let allowCredentials: { id: string; transports?: string[] }[] | undefined;
  if (userId) {
    const own = await deps.db.select().from(passkeys).where(and(eq(passkeys.userId, userId), eq(passkeys.domain, rpID)));
    if (own.length === 0) return fail(404, authMessages.noPasskeys);
    allowCredentials = own.map((p) => ({ id: p.id, transports: p.transports }));
  }
  const options = await generateAuthenticationOptions({ rpID, allowCredentials, userVerification: "preferred" });
  await storeChallenge(deps.db, options.challenge, "authenticate", rpID, userId, deps.now);
  return { ok: true as const, options };
}

/**
 * Checks a passkey assertion and signs its owner in. The credential must be registered on this very
 * domain, belong to the user the challenge was made for (when one was named), and its counter must move on.
 */
export async function completePasskeyAuthentication(deps: AuthDeps, response: AuthenticationResponseJSON, goto: string | null): Promise<{ ok: true; reply: VerifyReply; attemptToken: string } | Failure> {
  const { rpID, origin } = relyingParty(deps);
  const challenge = await takeChallenge(deps.db, response.response.clientDataJSON, "authenticate", rpID, deps.now);
  if (!challenge) return fail(400, authMessages.passkeyFailed);
  const stored = await deps.db.query.passkeys.findFirst({ where: and(eq(passkeys.id, response.id), eq(passkeys.domain, rpID)) });
  if (!stored || (challenge.userId !== null && stored.userId !== challenge.userId)) return fail(400, authMessages.invalidCredential);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: stored.id, publicKey: decodeBase64urlIgnorePadding(stored.publicKey) as Uint8Array<ArrayBuffer>, counter: stored.counter, transports: stored.transports },
      requireUserVerification: false,
    });
  } catch {
    return fail(400, authMessages.passkeyFailed);
  }
  if (!verification.verified) return fail(400, authMessages.passkeyFailed);
  await deps.db.update(passkeys).set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: deps.now }).where(eq(passkeys.id, stored.id));
  const attempt = await createAttempt(deps, { userId: stored.userId, method: "password", goto });
  if (!attempt.ok) return attempt;
  const reply = await verifyAttempt(deps, attempt.attempt_id, { passkey: stored.id });
  return { ok: true, reply, attemptToken: attempt.token };
}

export async function listPasskeys(db: Db, userId: string) {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId));
  return rows.map((p) => ({ id: p.id, domain: p.domain, created_at: p.createdAt, last_used: p.lastUsedAt }));
}

export async function deletePasskey(db: Db, userId: string, passkeyId: string): Promise<boolean> {
  const removed = await db.delete(passkeys).where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId))).returning({ id: passkeys.id });
  return removed.length === 1;
}
