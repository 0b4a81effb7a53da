/**
 * The unsubscribe link in every newsletter (issue 26): signed, not stored, naming the club and the address, so
 * a member can leave the club's newsletters without an account, and nobody can unsubscribe someone else by
 * editing the link. It does not expire: an old newsletter's link must still work (decision 0049).
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { normaliseEmail } from "../../core/newsletters/mailing";
import { keyMaterial } from "../auth/crypto";

async function signingKey(env: Env): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", await keyMaterial(env, "newsletter-unsubscribe"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

const payloadOf = (clubId: string, email: string) => new TextEncoder().encode(`unsubscribe:${clubId}:${email}`);

/** The path and query of the unsubscribe page for one address of one club. */
export async function unsubscribePath(env: Env, clubId: string, email: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await signingKey(env), payloadOf(clubId, email));
  const query = new URLSearchParams({ c: clubId, e: email, s: encodeBase64urlNoPadding(new Uint8Array(signature)) });
  return `/newsletters/unsubscribe?${query.toString()}`;
}

/** The club and address a link names, if we signed it; null for an edited or broken link. */
export async function readUnsubscribeLink(env: Env, query: URLSearchParams): Promise<{ clubId: string; email: string } | null> {
  const clubId = query.get("c") ?? "";
  const email = normaliseEmail(query.get("e"));
  const signatureText = query.get("s") ?? "";
  if (!/^[0-9a-f-]{36}$/.test(clubId) || !email || !/^[A-Za-z0-9_-]{43}$/.test(signatureText)) return null;
  const signature = decodeBase64urlIgnorePadding(signatureText);
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", await signingKey(env), signature as Uint8Array<ArrayBuffer>, payloadOf(clubId, email));
  return valid ? { clubId, email } : null;
}
