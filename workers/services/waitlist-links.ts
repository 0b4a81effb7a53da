/**
 * The link in every waitlist mail that lets a person leave the list (issue 24), and the link of a change's offer
 * (decision 0066): signed, not stored, like the receipt links (receipt-links.ts), keyed from AUTH_SECRET under
 * its own label, each purpose under its own prefix. It names only the entry; an entry no longer waiting or
 * offered makes the link say so.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { Lang } from "../../core/forms/bilingual";
import type { Db } from "../../schema/d1";
import { keyMaterial } from "../auth/crypto";
import { formOrigin } from "./receipts";

async function signingKey(env: Env): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", await keyMaterial(env, "waitlist-links"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Each link's purpose and its token's prefix: a leave link cannot be used as an offer's, nor the reverse. */
const PURPOSES = { leave: { label: "waitlist-leave", prefix: "w1" }, changeOffer: { label: "waitlist-change-offer", prefix: "c1" } } as const;
type Purpose = keyof typeof PURPOSES;

const payloadOf = (purpose: Purpose, entryId: string) => new TextEncoder().encode(`${PURPOSES[purpose].label}:${entryId}`);

async function signEntryLink(env: Env, purpose: Purpose, entryId: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await signingKey(env), payloadOf(purpose, entryId));
  return `${PURPOSES[purpose].prefix}.${entryId}.${encodeBase64urlNoPadding(new Uint8Array(signature))}`;
}

export const signLeaveLink = (env: Env, entryId: string) => signEntryLink(env, "leave", entryId);
export const signChangeOfferLink = (env: Env, entryId: string) => signEntryLink(env, "changeOffer", entryId);
export const verifyLeaveLink = (env: Env, token: string) => verifyEntryLink(env, "leave", token);
export const verifyChangeOfferLink = (env: Env, token: string) => verifyEntryLink(env, "changeOffer", token);

/** The address of the page where a person leaves the waitlist, on the form's own site. */
export async function leaveUrl(env: Env, db: Db, registration: { id: string; siteId: string | null }, entryId: string, lang: Lang): Promise<string> {
  const token = await signLeaveLink(env, entryId);
  return `${await formOrigin(env, db, registration.siteId)}/register/${registration.id}/waitlist?leave=${encodeURIComponent(token)}${lang === "fr" ? "&lang=fr" : ""}`;
}

/** The entry a link of this purpose names, if the signature is ours. */
async function verifyEntryLink(env: Env, purpose: Purpose, token: string): Promise<string | null> {
  const match = new RegExp(`^${PURPOSES[purpose].prefix}\\.([0-9a-f-]{36})\\.([A-Za-z0-9_-]{43})$`).exec(token);
  if (!match) return null;
  let signature: Uint8Array;
  try {
    signature = decodeBase64urlIgnorePadding(match[2]!);
  } catch {
    return null;
  }
  // crypto.subtle.verify compares in constant time.
  return (await crypto.subtle.verify("HMAC", await signingKey(env), signature as Uint8Array<ArrayBuffer>, payloadOf(purpose, match[1]!))) ? match[1]! : null;
}
