import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";

/** A random secret of `bytes` bytes as base64url; 20 bytes is 160 bits of entropy. */
export function randomToken(bytes = 20): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** What is stored in place of a token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export function constantTimeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Used only by `wrangler dev` and tests; production must set the AUTH_SECRET secret. */
const DEVELOPMENT_SECRET = "startline-development-secret-not-for-production";

async function encryptionKey(env: Env): Promise<CryptoKey> {
  const secret = env.AUTH_SECRET ?? (env.ENVIRONMENT === "development" ? DEVELOPMENT_SECRET : undefined);
  if (!secret) throw new Error("AUTH_SECRET is not set");
  const material = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`totp-encryption:${secret}`));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** AES-GCM for secrets that must be read back (TOTP keys): `<iv>.<ciphertext>`, base64url. */
export async function encryptSecret(env: Env, plain: Uint8Array<ArrayBuffer>): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await encryptionKey(env), plain);
  return `${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(sealed))}`;
}

export async function decryptSecret(env: Env, sealed: string): Promise<Uint8Array> {
  const [ivText, dataText] = sealed.split(".");
  if (!ivText || !dataText) throw new Error("Malformed sealed secret");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: decodeBase64urlIgnorePadding(ivText) as Uint8Array<ArrayBuffer> },
    await encryptionKey(env),
    decodeBase64urlIgnorePadding(dataText) as Uint8Array<ArrayBuffer>,
  );
  return new Uint8Array(plain);
}
