import { decodeCBORToNativeValueNoLeftoverBytes } from "@oslojs/cbor";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import {
  COSEKeyType,
  COSEPublicKey,
  coseAlgorithmEdDSA,
  coseAlgorithmES256,
  coseAlgorithmRS256,
  coseEllipticCurveEd25519,
  coseEllipticCurveP256,
} from "@oslojs/webauthn";
import { PasskeyRefusal } from "./refusal";

/**
 * A passkey's public key: the COSE_Key bytes the authenticator gave at registration (what the passkeys table
 * stores, base64url, since @simplewebauthn/server), read and turned into a WebCrypto key to check signatures.
 */

/** The algorithms offered at registration, in the order offered (EdDSA, ES256, RS256, as before). */
export const SUPPORTED_ALGORITHMS = [coseAlgorithmEdDSA, coseAlgorithmES256, coseAlgorithmRS256] as const;

export type CredentialAlgorithm = (typeof SUPPORTED_ALGORITHMS)[number];

export interface CredentialKey {
  algorithm: CredentialAlgorithm;
  key: CryptoKey;
}

/** COSE_Key maps are one level of numbers and byte strings; a little room for authenticators' extras. */
const COSE_MAX_DEPTH = 4;

const P256_COORDINATE_BYTES = 32;
const RSA_MODULUS_BYTES = 256;
const RSA_EXPONENT_BYTES = 3;

function fixedBytes(value: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let rest = value;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  if (rest !== 0n) throw new PasskeyRefusal("key parameter too long");
  return out;
}

/** Decodes stored or just-registered COSE_Key bytes: exactly one CBOR map, nothing after it. */
export function decodeCredentialKey(cose: Uint8Array): COSEPublicKey {
  let decoded: unknown;
  try {
    decoded = decodeCBORToNativeValueNoLeftoverBytes(cose, COSE_MAX_DEPTH);
  } catch {
    throw new PasskeyRefusal("public key is not one CBOR item");
  }
  if (typeof decoded !== "object" || decoded === null || Array.isArray(decoded) || decoded instanceof Uint8Array) {
    throw new PasskeyRefusal("public key is not a CBOR map");
  }
  return new COSEPublicKey(decoded);
}

/** The key's algorithm, refused unless it names one we offered (as registration options say). */
export function credentialAlgorithm(key: COSEPublicKey): CredentialAlgorithm {
  let algorithm: number;
  try {
    algorithm = key.algorithm();
  } catch {
    // A key without a numeric alg is refused, as @simplewebauthn/server refused it.
    throw new PasskeyRefusal("public key has no numeric alg");
  }
  // Only the algorithms registration offered are accepted (pubKeyCredParams).
  if (!(SUPPORTED_ALGORITHMS as readonly number[]).includes(algorithm)) throw new PasskeyRefusal(`unsupported algorithm ${algorithm}`);
  return algorithm as CredentialAlgorithm;
}

/**
 * Imports a COSE key for verifying: ES256 on P-256 (x, y 32 bytes each), RS256 with a 2048-bit modulus and
 * 3-byte exponent, EdDSA on Ed25519 (x 32 bytes). The key type must match the algorithm; WebCrypto then checks
 * that an EC point is on its curve.
 */
export async function importCredentialKey(cose: Uint8Array): Promise<CredentialKey> {
  const key = decodeCredentialKey(cose);
  const algorithm = credentialAlgorithm(key);
  try {
    if (algorithm === coseAlgorithmES256) {
      // WebAuthn §5.8.5: ES256 keys name P-256; any other curve under alg -7 is refused.
      if (key.type() !== COSEKeyType.EC2) throw new PasskeyRefusal("ES256 key is not EC2");
      const { curve, x, y } = key.ec2();
      if (curve !== coseEllipticCurveP256) throw new PasskeyRefusal(`ES256 key on curve ${curve}`);
      const point = new Uint8Array(1 + 2 * P256_COORDINATE_BYTES);
      point[0] = 0x04;
      point.set(fixedBytes(x, P256_COORDINATE_BYTES), 1);
      point.set(fixedBytes(y, P256_COORDINATE_BYTES), 1 + P256_COORDINATE_BYTES);
      return { algorithm, key: await crypto.subtle.importKey("raw", point, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]) };
    }
    if (algorithm === coseAlgorithmRS256) {
      if (key.type() !== COSEKeyType.RSA) throw new PasskeyRefusal("RS256 key is not RSA");
      const { n, e } = key.rsa();
      const jwk: JsonWebKey = {
        kty: "RSA",
        alg: "RS256",
        n: encodeBase64urlNoPadding(fixedBytes(n, RSA_MODULUS_BYTES)),
        e: encodeBase64urlNoPadding(fixedBytes(e, RSA_EXPONENT_BYTES)),
      };
      return { algorithm, key: await crypto.subtle.importKey("jwk", jwk, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]) };
    }
    if (key.type() !== COSEKeyType.OKP) throw new PasskeyRefusal("EdDSA key is not OKP");
    const { curve, x } = key.okp();
    if (curve !== coseEllipticCurveEd25519 || x.byteLength !== 32) throw new PasskeyRefusal("EdDSA key is not Ed25519");
    return { algorithm, key: await crypto.subtle.importKey("raw", x as Uint8Array<ArrayBuffer>, { name: "Ed25519" }, false, ["verify"]) };
  } catch (error) {
    if (error instanceof PasskeyRefusal) throw error;
    throw new PasskeyRefusal("public key parameters are not valid");
  }
}

/** Reads one DER INTEGER at `at`: minimal, positive, at most `size` bytes of value; returns it left-padded. */
function derInteger(der: Uint8Array, at: number, size: number): { value: Uint8Array; next: number } {
  if (der[at] !== 0x02) throw new PasskeyRefusal("signature: INTEGER expected");
  const length = der[at + 1];
  if (length === undefined || length === 0 || length > 0x7f || at + 2 + length > der.length) throw new PasskeyRefusal("signature: bad INTEGER length");
  let bytes = der.subarray(at + 2, at + 2 + length);
  // DER: no negative numbers and no leading zero byte unless the next byte's top bit needs it.
  if (bytes[0]! & 0x80) throw new PasskeyRefusal("signature: negative INTEGER");
  if (bytes[0] === 0 && bytes.length > 1) {
    if (!(bytes[1]! & 0x80)) throw new PasskeyRefusal("signature: INTEGER not minimal");
    bytes = bytes.subarray(1);
  }
  if (bytes.length > size) throw new PasskeyRefusal("signature: INTEGER too long");
  if (bytes.every((b) => b === 0)) throw new PasskeyRefusal("signature: INTEGER is zero");
  const value = new Uint8Array(size);
  value.set(bytes, size - bytes.length);
  return { value, next: at + 2 + length };
}

/**
 * An ECDSA signature as WebAuthn sends it (ASN.1 DER `SEQUENCE { r INTEGER, s INTEGER }`) turned into the
 * r||s form WebCrypto verifies, each `size` bytes (32 for P-256). Strict DER: short lengths, minimal integers,
 * no bytes after the sequence.
 */
export function ecdsaSignatureFromDer(der: Uint8Array, size = P256_COORDINATE_BYTES): Uint8Array {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2 || der[1]! > 0x7f) throw new PasskeyRefusal("signature: not one DER SEQUENCE");
  const r = derInteger(der, 2, size);
  const s = derInteger(der, r.next, size);
  if (s.next !== der.length) throw new PasskeyRefusal("signature: bytes after s");
  const raw = new Uint8Array(2 * size);
  raw.set(r.value, 0);
  raw.set(s.value, size);
  return raw;
}

/** Checks `signature` over `message` with the credential's key, by its algorithm; false when it does not match. */
export async function verifyCredentialSignature(credential: CredentialKey, signature: Uint8Array, message: Uint8Array): Promise<boolean> {
  const data = message as Uint8Array<ArrayBuffer>;
  if (credential.algorithm === coseAlgorithmES256) {
    // WebAuthn §6.5.6: ES256 assertion signatures are DER-encoded; WebCrypto takes r||s.
    const raw = ecdsaSignatureFromDer(signature) as Uint8Array<ArrayBuffer>;
    return crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, credential.key, raw, data);
  }
  const name = credential.algorithm === coseAlgorithmRS256 ? "RSASSA-PKCS1-v1_5" : "Ed25519";
  return crypto.subtle.verify({ name }, credential.key, signature as Uint8Array<ArrayBuffer>, data);
}
