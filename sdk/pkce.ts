/**
 * PKCE (RFC 7636) with web crypto only, so the same code runs in browsers and Node 20. The server accepts
 * S256 alone, and spec section 9 fixes the verifier and state at 32 random bytes (43 base64url characters).
 */

export const PKCE_RANDOM_BYTES = 32;

/** The part of web crypto the SDK needs; `globalThis.crypto` in browsers and Node 20. */
export interface SdkCrypto {
  getRandomValues(array: Uint8Array): Uint8Array;
  readonly subtle: Pick<SubtleCrypto, "digest">;
}

/** base64url without padding (RFC 4648 section 5), as PKCE and the server's codes use. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function randomBase64Url(crypto: SdkCrypto, byteLength = PKCE_RANDOM_BYTES): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** code_challenge = base64url(SHA-256(ASCII(verifier))). */
export async function codeChallengeS256(crypto: SdkCrypto, verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

export interface PkcePair {
  readonly verifier: string;
  readonly challenge: string;
  readonly state: string;
}

/** A fresh verifier and state, each from 32 random bytes, and the verifier's S256 challenge. */
export async function createPkcePair(crypto: SdkCrypto): Promise<PkcePair> {
  const verifier = randomBase64Url(crypto);
  const state = randomBase64Url(crypto);
  return { verifier, state, challenge: await codeChallengeS256(crypto, verifier) };
}
