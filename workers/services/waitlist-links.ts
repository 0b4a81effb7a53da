/**
 * The link in every waitlist mail that lets a person leave the list (issue 24): signed, not stored, like the
 * receipt links (receipt-links.ts), keyed from AUTH_SECRET under its own label. It names only the entry; an
 * entry no longer waiting or offered makes the link say so.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { keyMaterial } from "../auth/crypto";

async function signingKey(env: Env): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", await keyMaterial(env, "waitlist-links"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

const payloadOf = (entryId: string) => new TextEncoder().encode(`waitlist-leave:${entryId}`);

export async function signLeaveLink(env: Env, entryId: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await signingKey(env), payloadOf(entryId));
  return `w1.${entryId}.${encodeBase64urlNoPadding(new Uint8Array(signature))}`;
}

/** The entry a leave link names, if the signature is ours. */
export async function verifyLeaveLink(env: Env, token: string): Promise<string | null> {
  const match = /^w1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  let signature: Uint8Array;
  try {
    signature = decodeBase64urlIgnorePadding(match[2]!);
  } catch {
    return null;
  }
  // crypto.subtle.verify compares in constant time.
  return (await crypto.subtle.verify("HMAC", await signingKey(env), signature as Uint8Array<ArrayBuffer>, payloadOf(match[1]!))) ? match[1]! : null;
}
