import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

// Token helpers live in core so the Durable Objects can use them without importing the Worker layer.
export { constantTimeEqualText, hashToken, randomToken } from "../../core/auth/tokens";

/** Used only by `wrangler dev` and tests; production must set the AUTH_SECRET secret. */
const DEVELOPMENT_SECRET = "startline-development-secret-not-for-production";

/** A key of its own for each purpose, derived from AUTH_SECRET, so no two uses share one. */
export async function keyMaterial(env: Env, purpose: string): Promise<ArrayBuffer> {
  const secret = env.AUTH_SECRET ?? (env.ENVIRONMENT === "development" ? DEVELOPMENT_SECRET : undefined);
  if (!secret) throw new Error("AUTH_SECRET is not set");
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${purpose}:${secret}`));
}

async function encryptionKey(env: Env): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", await keyMaterial(env, "totp-encryption"), "AES-GCM", false, ["encrypt", "decrypt"]);
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
