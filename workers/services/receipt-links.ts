/**
 * The receipt link a registrant gets by mail (issue 24): signed, not stored, so every mail can carry the same
 * working link and none voids another. It names the cart, the cart's receipt version and when it expires,
 * with an HMAC-SHA256 over them keyed from AUTH_SECRET. Raising the cart's receipt_version revokes every link
 * sent before; an expired link says so. Links from before signing (`<cart>.<secret>`, hash stored) still open.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { eq, sql } from "drizzle-orm";
import { carts, rawBatch, type Db } from "../../schema/d1";
import { keyMaterial } from "../auth/crypto";

/** How long a receipt link opens the receipt (and its self-service changes) after it was sent. */
export const RECEIPT_LINK_DAYS = 180;
async function signingKey(env: Env): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", await keyMaterial(env, "receipt-links"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

const payloadOf = (cartId: string, version: number, expiresAt: number) => new TextEncoder().encode(`receipt:${cartId}:${version}:${expiresAt}`);

export async function signReceiptLink(env: Env, cart: { id: string; receiptVersion: number }, now: number): Promise<string> {
  const expiresAt = now + RECEIPT_LINK_DAYS * 86_400_000;
  const signature = await crypto.subtle.sign("HMAC", await signingKey(env), payloadOf(cart.id, cart.receiptVersion, expiresAt));
  return `r1.${cart.id}.${cart.receiptVersion}.${expiresAt.toString(36)}.${encodeBase64urlNoPadding(new Uint8Array(signature))}`;
}

export type ReceiptLinkCheck = { ok: true; cartId: string; version: number } | { ok: false; reason: "malformed" | "forged" | "expired" };

/** The cart a signed link names, if the signature is ours and the link has not expired (the version is checked against the cart by the caller). */
export async function verifyReceiptLink(env: Env, token: string, now: number): Promise<ReceiptLinkCheck> {
  const match = /^r1\.([0-9a-f-]{36})\.(\d{1,9})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, cartId, versionText, expiresText, signatureText] = match as unknown as [string, string, string, string, string];
  const version = Number(versionText);
  const expiresAt = parseInt(expiresText, 36);
  let signature: Uint8Array;
  try {
    signature = decodeBase64urlIgnorePadding(signatureText);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", await signingKey(env), signature as Uint8Array<ArrayBuffer>, payloadOf(cartId, version, expiresAt));
  if (!valid) return { ok: false, reason: "forged" };
  if (now >= expiresAt) return { ok: false, reason: "expired" };
  return { ok: true, cartId, version };
}

/** Every receipt link sent for the cart stops working; the next mail carries a new one. */
export async function revokeReceiptLinks(db: Db, cartId: string): Promise<void> {
  await db
    .update(carts)
    .set({ receiptVersion: sql`${carts.receiptVersion} + 1` })
    .where(eq(carts.id, cartId));
}

/**
 * An organiser sends a cart's receipt again (issue 24), optionally with a new link that voids every link sent
 * before (a forwarded mail). Recorded in the form's audit trail under the confirm step's request id: true only
 * for the call that recorded it, so a double click mails once.
 */
export async function recordReceiptResend(db: Db, cartId: string, requestId: string, relink: boolean, userId: string, now: number): Promise<boolean> {
  const [cart] = await db.select({ registrationId: carts.registrationId }).from(carts).where(eq(carts.id, cartId)).limit(1);
  if (!cart) return false;
  const [written] = await rawBatch(db, [
    sql`INSERT INTO cart_changes (id, cart_id, registration_id, individual_id, kind, amount, actor, detail, created_at)
        VALUES (${requestId}, ${cartId}, ${cart.registrationId}, NULL, ${relink ? "relink" : "resend"}, 0, ${userId}, '', ${now}) ON CONFLICT DO NOTHING`,
    // The new link's version is raised only by the call that recorded the resend.
    sql`UPDATE carts SET receipt_version = receipt_version + 1 WHERE id = ${cartId} AND ${relink ? 1 : 0} = 1 AND changes() = 1`,
  ]);
  return (written?.meta.changes ?? 0) > 0;
}
