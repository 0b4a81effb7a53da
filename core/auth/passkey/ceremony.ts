import { decodeCBORToNativeValue, decodeCBORToNativeValueNoLeftoverBytes } from "@oslojs/cbor";
import { sha256 } from "@oslojs/crypto/sha2";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { createAssertionSignatureMessage } from "@oslojs/webauthn";
import { importCredentialKey, verifyCredentialSignature } from "./credential-key";
import { PasskeyRefusal } from "./refusal";

/**
 * The server's checks of a WebAuthn registration and assertion (WebAuthn Level 3 §7.1 and §7.2), every one
 * @simplewebauthn/server made, on @oslojs parsers and WebCrypto. Each throws PasskeyRefusal on the first
 * failed check; the caller turns any refusal into its one message.
 */

/** What a passkey endpoint's schema has read of the browser's JSON (schema/wire/auth.ts); the rest is read here. */
export interface PasskeyResponseJSON {
  id: string;
  response: { clientDataJSON: string };
}

export interface RelyingParty {
  /** The tenant's hostname; the authenticator hashes it into rpIdHash. */
  id: string;
  /** The tenant's configured origin, exactly as the browser reports it in clientDataJSON. */
  origin: string;
}

export interface RegisteredCredential {
  id: string;
  /** The COSE_Key bytes as the authenticator sent them; stored base64url in passkeys.public_key. */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  userVerified: boolean;
}

export interface StoredCredential {
  id: string;
  publicKey: Uint8Array;
  counter: number;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_BACKUP_ELIGIBLE = 0x08;
const FLAG_BACKED_UP = 0x10;
const FLAG_ATTESTED_CREDENTIAL = 0x40;
const FLAG_EXTENSIONS = 0x80;
/** WebAuthn §5.1: credential IDs are at most 1023 bytes. */
const MAX_CREDENTIAL_ID_BYTES = 1023;
/** attestationObject → attStmt → x5c → certificate, with room for the formats' own nesting. */
const ATTESTATION_MAX_DEPTH = 4;
const EXTENSIONS_MAX_DEPTH = 8;
/** The statement formats of the WebAuthn registry; any other is refused, as before. */
const ATTESTATION_FORMATS = ["none", "packed", "tpm", "android-key", "android-safetynet", "fido-u2f", "apple"];
/** tokenBinding.status values each ceremony accepted under @simplewebauthn/server 14. */
const TOKEN_BINDING_STATUSES = { "webauthn.create": ["present", "supported", "not-supported"], "webauthn.get": ["present", "supported", "notSupported"] };

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array) throw new PasskeyRefusal(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function base64url(value: unknown, what: string): Uint8Array {
  if (typeof value !== "string") throw new PasskeyRefusal(`${what} is not a string`);
  try {
    return decodeBase64urlIgnorePadding(value);
  } catch {
    throw new PasskeyRefusal(`${what} is not base64url`);
  }
}

/** The checks both ceremonies make on the credential object itself; returns its `response` member. */
function credentialEnvelope(credential: PasskeyResponseJSON): Record<string, unknown> {
  const outer = record(credential, "credential");
  // The credential names itself, its id is the base64url of rawId, and it is a public-key credential.
  if (typeof outer.id !== "string" || outer.id === "") throw new PasskeyRefusal("missing credential id");
  if (outer.id !== outer.rawId) throw new PasskeyRefusal("id and rawId differ");
  if (outer.type !== "public-key") throw new PasskeyRefusal("credential type is not public-key");
  return record(outer.response, "response");
}

/** Checks clientDataJSON against the ceremony: type, our challenge, our origin, no framing; returns its bytes. */
function checkClientData(encoded: unknown, type: "webauthn.create" | "webauthn.get", challenge: string, rp: RelyingParty): Uint8Array {
  const bytes = base64url(encoded, "clientDataJSON");
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new PasskeyRefusal("clientDataJSON is not JSON");
  }
  const data = record(parsed, "clientDataJSON");
  // The browser says which ceremony it ran; an assertion cannot stand in for a registration or back.
  if (data.type !== type) throw new PasskeyRefusal(`clientData type ${String(data.type)}`);
  // The challenge is the one this server issued (and takeChallenge has used up).
  if (typeof data.challenge !== "string" || data.challenge !== challenge) throw new PasskeyRefusal("challenge does not match");
  // The origin is the tenant's own, so a look-alike site's ceremony is refused.
  if (data.origin !== rp.origin) throw new PasskeyRefusal(`origin ${String(data.origin)}`);
  // Our pages forbid framing (frame-ancestors 'none'), so a cross-origin or top-origin ceremony is not ours.
  if (data.crossOrigin !== undefined && data.crossOrigin !== false) throw new PasskeyRefusal("cross-origin ceremony");
  if (data.topOrigin !== undefined) throw new PasskeyRefusal("topOrigin present");
  // A tokenBinding member, when present, has one of the statuses the spec defines.
  if (data.tokenBinding !== undefined) {
    const status = record(data.tokenBinding, "tokenBinding").status;
    if (!TOKEN_BINDING_STATUSES[type].includes(status as string)) throw new PasskeyRefusal(`tokenBinding status ${String(status)}`);
  }
  return bytes;
}

interface AuthenticatorData {
  userVerified: boolean;
  counter: number;
  /** Present when the attested-credential flag is set (registration). */
  credential: { id: Uint8Array; publicKey: Uint8Array } | null;
}

/** Parses authenticator data and checks what both ceremonies require of it: our rpIdHash, user present, flags coherent, no extra bytes. */
export function checkAuthenticatorData(bytes: Uint8Array, rp: RelyingParty): AuthenticatorData {
  if (bytes.length < 37) throw new PasskeyRefusal("authenticator data shorter than 37 bytes");
  // The authenticator scoped the credential to our RP ID: a passkey made for another site cannot sign here.
  const expectedHash = sha256(new TextEncoder().encode(rp.id));
  if (!bytes.subarray(0, 32).every((b, i) => b === expectedHash[i])) throw new PasskeyRefusal("rpIdHash does not match");
  const flags = bytes[32]!;
  // User presence (UP) is required in both ceremonies; UV is reported for the caller's policy (decision 0025).
  if (!(flags & FLAG_USER_PRESENT)) throw new PasskeyRefusal("user not present");
  // A credential that is not backup-eligible cannot be backed up (WebAuthn §6.1.3).
  if (flags & FLAG_BACKED_UP && !(flags & FLAG_BACKUP_ELIGIBLE)) throw new PasskeyRefusal("backed up but not backup-eligible");
  const counter = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(33);
  let at = 37;
  let credential: AuthenticatorData["credential"] = null;
  if (flags & FLAG_ATTESTED_CREDENTIAL) {
    if (bytes.length < at + 18) throw new PasskeyRefusal("attested credential data cut short");
    const idLength = (bytes[at + 16]! << 8) | bytes[at + 17]!;
    at += 18;
    if (idLength === 0 || idLength > MAX_CREDENTIAL_ID_BYTES || bytes.length < at + idLength) throw new PasskeyRefusal("bad credential id length");
    const id = bytes.slice(at, at + idLength);
    at += idLength;
    let keyLength: number;
    try {
      [, keyLength] = decodeCBORToNativeValue(bytes.subarray(at), ATTESTATION_MAX_DEPTH);
    } catch {
      throw new PasskeyRefusal("credential public key is not CBOR");
    }
    credential = { id, publicKey: bytes.slice(at, at + keyLength) };
    at += keyLength;
  }
  if (flags & FLAG_EXTENSIONS) {
    let extensions: unknown;
    let length: number;
    try {
      [extensions, length] = decodeCBORToNativeValue(bytes.subarray(at), EXTENSIONS_MAX_DEPTH);
    } catch {
      throw new PasskeyRefusal("extensions are not CBOR");
    }
    record(extensions, "extensions");
    at += length;
  }
  // Nothing may follow what the flags announce.
  if (at !== bytes.length) throw new PasskeyRefusal("leftover bytes in authenticator data");
  return { userVerified: (flags & FLAG_USER_VERIFIED) !== 0, counter, credential };
}

/** The attestation object's parts; the statement is checked only for its format (see verifyRegistration). */
function readAttestationObject(encoded: unknown): { format: string; statement: Record<string, unknown>; authenticatorData: Uint8Array } {
  let decoded: unknown;
  try {
    decoded = decodeCBORToNativeValueNoLeftoverBytes(base64url(encoded, "attestationObject"), ATTESTATION_MAX_DEPTH);
  } catch (error) {
    throw error instanceof PasskeyRefusal ? error : new PasskeyRefusal("attestationObject is not one CBOR item");
  }
  const object = record(decoded, "attestationObject");
  // A format outside the WebAuthn registry is refused, as @simplewebauthn/server refused it.
  if (typeof object.fmt !== "string" || !ATTESTATION_FORMATS.includes(object.fmt)) throw new PasskeyRefusal(`attestation format ${String(object.fmt)}`);
  if (!(object.authData instanceof Uint8Array)) throw new PasskeyRefusal("authData is not bytes");
  return { format: object.fmt, statement: record(object.attStmt, "attStmt"), authenticatorData: object.authData };
}

function transportsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((t): t is string => typeof t === "string" && /^[a-z-]{1,32}$/.test(t)).slice(0, 8);
}

/**
 * Checks a registration (navigator.credentials.create's answer) and returns the credential to store.
 * Attestation: the options ask for "none". A "none" statement must be empty; a statement of another known
 * format is not verified and the registration is treated as "none" — we accept "none" anyway, so checking
 * another format's certificates would add no assurance, only X.509 code (decision 0037).
 */
export async function verifyRegistration(credential: PasskeyResponseJSON, expected: { challenge: string; rp: RelyingParty }): Promise<RegisteredCredential> {
  const response = credentialEnvelope(credential);
  checkClientData(response.clientDataJSON, "webauthn.create", expected.challenge, expected.rp);
  const attestation = readAttestationObject(response.attestationObject);
  // A "none" attestation carries no statement.
  if (attestation.format === "none" && Object.keys(attestation.statement).length > 0) throw new PasskeyRefusal("none attestation with a statement");
  const data = checkAuthenticatorData(attestation.authenticatorData, expected.rp);
  // A registration must carry the new credential: its id and public key.
  if (!data.credential) throw new PasskeyRefusal("no attested credential data");
  const id = encodeBase64urlNoPadding(data.credential.id);
  // The credential id the browser reports is the one the authenticator attested.
  if (credential.id !== id) throw new PasskeyRefusal("credential id differs from authenticator data");
  // The key is one CBOR map, of an algorithm we offered, and importable (a valid point or modulus).
  await importCredentialKey(data.credential.publicKey);
  return { id, publicKey: data.credential.publicKey, counter: data.counter, transports: transportsOf(response.transports), userVerified: data.userVerified };
}

/**
 * Checks an assertion (navigator.credentials.get's answer) by a stored credential and returns the new
 * counter and whether the user was verified. `userId`, when given, is the owner the user handle must name.
 */
export async function verifyAssertion(
  credential: PasskeyResponseJSON,
  expected: { challenge: string; rp: RelyingParty; stored: StoredCredential; userId?: string },
): Promise<{ newCounter: number; userVerified: boolean }> {
  const response = credentialEnvelope(credential);
  // The response is for the stored credential it is checked against.
  if (credential.id !== expected.stored.id) throw new PasskeyRefusal("assertion is for another credential");
  const clientData = checkClientData(response.clientDataJSON, "webauthn.get", expected.challenge, expected.rp);
  const authenticatorData = base64url(response.authenticatorData, "authenticatorData");
  const signature = base64url(response.signature, "signature");
  // A discoverable credential's user handle names its owner (WebAuthn §7.2 step 6); it must be the stored owner.
  if (response.userHandle !== undefined && response.userHandle !== null && response.userHandle !== "") {
    if (typeof response.userHandle !== "string") throw new PasskeyRefusal("userHandle is not a string");
    if (expected.userId !== undefined && response.userHandle !== encodeBase64urlNoPadding(new TextEncoder().encode(expected.userId))) {
      throw new PasskeyRefusal("userHandle names another user");
    }
  }
  const data = checkAuthenticatorData(authenticatorData, expected.rp);
  // Sign counter: when either side counts, the new value must be above the stored one (a cloned key shows here).
  if ((data.counter > 0 || expected.stored.counter > 0) && data.counter <= expected.stored.counter) {
    throw new PasskeyRefusal(`counter ${data.counter} not above ${expected.stored.counter}`);
  }
  const key = await importCredentialKey(expected.stored.publicKey);
  // The signature covers authenticatorData || SHA-256(clientDataJSON), by the registered key.
  if (!(await verifyCredentialSignature(key, signature, createAssertionSignatureMessage(authenticatorData, clientData)))) {
    throw new PasskeyRefusal("signature does not verify");
  }
  return { newCounter: data.counter, userVerified: data.userVerified };
}
