import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { SUPPORTED_ALGORITHMS } from "./credential-key";

/**
 * The options the browser's navigator.credentials.create/get receive (through @simplewebauthn/browser), in
 * the shape @simplewebauthn/server 14 wrote them, so the browser half and stored passkeys work as before.
 */

/** How long the browser waits for the authenticator; the stored challenge lives longer (WEBAUTHN_CHALLENGE_TTL_MS). */
const CEREMONY_TIMEOUT_MS = 60_000;
/** 32 random bytes: a challenge cannot be guessed or repeated (WebAuthn §13.4.3 asks for at least 16). */
const CHALLENGE_BYTES = 32;

export interface KnownCredential {
  id: string;
  transports?: string[];
}

export function newChallenge(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(CHALLENGE_BYTES)));
}

const credentialDescriptors = (credentials: KnownCredential[]) =>
  credentials.map((credential) => ({ id: credential.id.replace(/=+$/, ""), transports: credential.transports, type: "public-key" as const }));

export function registrationOptions(input: {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials: KnownCredential[];
}) {
  return {
    challenge: input.challenge,
    rp: { name: input.rp.name, id: input.rp.id },
    // The user handle is the user id's UTF-8 bytes; an assertion's userHandle is checked against it.
    user: { id: encodeBase64urlNoPadding(new TextEncoder().encode(input.user.id)), name: input.user.name, displayName: input.user.displayName },
    pubKeyCredParams: SUPPORTED_ALGORITHMS.map((alg) => ({ alg, type: "public-key" as const })),
    timeout: CEREMONY_TIMEOUT_MS,
    attestation: "none" as const,
    excludeCredentials: credentialDescriptors(input.excludeCredentials),
    authenticatorSelection: { residentKey: "preferred" as const, userVerification: "preferred" as const, requireResidentKey: false },
    extensions: { credProps: true },
    hints: [] as string[],
  };
}

export function authenticationOptions(input: {
  challenge: string;
  rpId: string;
  allowCredentials?: KnownCredential[];
  userVerification: "required" | "preferred";
}) {
  return {
    rpId: input.rpId,
    challenge: input.challenge,
    ...(input.allowCredentials ? { allowCredentials: credentialDescriptors(input.allowCredentials) } : {}),
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: input.userVerification,
  };
}
