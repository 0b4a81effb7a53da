/**
 * Passes and member cards (issue 27, decision 0050): issuing (from a membership, a registration or by hand),
 * revoking, the signed card link, and check-in. Numbers come from a per-club counter raised in the issuing
 * batch, so they are sequential, unique and never given again; a pass is found again by its source, so a
 * retried job or a double click issues one card.
 */
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { PASS_MESSAGES, passState, tokenInScan, type CheckResult } from "../../core/passes/pass-status";
import { isTimeZone, localInputOf } from "../../core/time/wall-clock";
import type { Lang } from "../../core/forms/bilingual";
import { clubs, entityChanges, passChecks, passes, rawBatch, type Db } from "../../schema/d1";
import { keyMaterial } from "../auth/crypto";
import type { HistoryAuthor } from "./entity-history";
import { qrSvg } from "./pass-qr";

export type PassRow = typeof passes.$inferSelect;

export interface IssueInput {
  clubId: string;
  siteId: string | null;
  kind: "pass" | "member_card";
  holderName: string;
  holderEmail: string | null;
  season: string | null;
  validFrom: string | null;
  validUntil: string | null;
  /** What issues it; the same source issues one pass per club. */
  source: string;
  /** The holder's language (English when not given): the card's mail is written in it. */
  lang?: Lang;
}

/** Issues a pass, or finds the one this source already issued (created says which). */
export async function issuePass(db: Db, input: IssueInput, now: number): Promise<{ pass: PassRow; created: boolean }> {
  const id = crypto.randomUUID();
  const { clubId, source } = input;
  await rawBatch(db, [
    sql`INSERT INTO pass_counters (club_id, last_number) VALUES (${clubId}, 0) ON CONFLICT DO NOTHING`,
    // Raised only when this source has no pass yet, so a retry spends no number.
    sql`UPDATE pass_counters SET last_number = last_number + 1
        WHERE club_id = ${clubId} AND NOT EXISTS (SELECT 1 FROM passes WHERE club_id = ${clubId} AND source = ${source})`,
    sql`INSERT INTO passes (id, created_at, field_mtimes, club_id, site_id, kind, holder_name, holder_email, season, number, valid_from, valid_until, source, lang)
        SELECT ${id}, ${now}, '{}', ${clubId}, ${input.siteId}, ${input.kind}, ${input.holderName}, ${input.holderEmail}, ${input.season},
               printf('%06d', last_number), ${input.validFrom}, ${input.validUntil}, ${source}, ${input.lang ?? "en"}
        FROM pass_counters WHERE club_id = ${clubId} AND changes() = 1
        ON CONFLICT DO NOTHING`,
    // The card's mail, only for a card this batch made and that has an address: a retry finds the card and mails nothing.
    sql`INSERT INTO pass_mails (id, pass_id, club_id, email, lang, state, attempts, created_at, updated_at)
        SELECT id, id, club_id, holder_email, lang, 'queued', 0, ${now}, ${now} FROM passes WHERE id = ${id} AND holder_email IS NOT NULL
        ON CONFLICT DO NOTHING`,
  ]);
  const [pass] = await db
    .select()
    .from(passes)
    .where(and(eq(passes.clubId, clubId), eq(passes.source, source)))
    .limit(1);
  if (!pass) throw new Error("Issuing a pass wrote nothing");
  return { pass, created: pass.id === id };
}

/**
 * Revokes the club's cards `which` names that are not revoked yet, with their history rows (revoked_time and
 * revoke_reason, as an edit through the entity service writes them), for the caller's batch. The history is
 * written before the update and only for a card still unrevoked, so a second click records nothing.
 */
export function revokeStatements(db: Db, clubId: string, which: SQL, reason: string, author: HistoryAuthor) {
  const open = and(eq(passes.clubId, clubId), which, isNull(passes.revokedTime));
  const history = (field: string, oldValue: SQL, newValue: string) =>
    db
      .insert(entityChanges)
      .select(
        sql`SELECT ${crypto.randomUUID()}, 'Pass', ${passes.id}, ${field}, 'changed', ${oldValue}, ${newValue}, ${author.userId}, ${author.appId}, ${author.at} FROM ${passes} WHERE ${open}`,
      );
  return [
    history("revoked_time", sql`NULL`, JSON.stringify(author.at)),
    history("revoke_reason", sql`CASE WHEN ${passes.revokeReason} IS NULL THEN NULL ELSE json_quote(${passes.revokeReason}) END`, JSON.stringify(reason)),
    db
      .update(passes)
      .set({
        revokedTime: author.at,
        revokeReason: reason,
        fieldMtimes: sql`json_set(${passes.fieldMtimes}, '$.revoked_time', ${author.at}, '$.revoke_reason', ${author.at})`,
      })
      .where(open),
  ] as const;
}

/** Revokes a club's pass with its reason; false when there is no such pass or it was already revoked (a second click). */
export async function revokePass(db: Db, clubId: string, passId: string, reason: string, author: HistoryAuthor): Promise<boolean> {
  const results = await db.batch(revokeStatements(db, clubId, eq(passes.id, passId), reason, author));
  return (results[2] as unknown as D1Result).meta.changes === 1;
}

export async function clubPasses(db: Db, clubId: string): Promise<PassRow[]> {
  return db.select().from(passes).where(eq(passes.clubId, clubId)).orderBy(desc(passes.number)).limit(500);
}

// The card link and the QR code carry the same token: the pass id and 128 bits of HMAC-SHA256 over it.
async function signatureOf(env: Env, passId: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", await keyMaterial(env, "pass-cards"), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`pass:${passId}`))).slice(0, 16);
}

export async function passToken(env: Env, passId: string): Promise<string> {
  return `p1.${passId}.${encodeBase64urlNoPadding(await signatureOf(env, passId))}`;
}

export async function passCardPath(env: Env, passId: string): Promise<string> {
  return `/passes/${passId}?t=${await passToken(env, passId)}`;
}

/** The pass a scanned text names when its signature is ours; null for anything else (forged, edited, not a card). */
export async function verifiedPassId(env: Env, scanned: string): Promise<string | null> {
  const found = tokenInScan(scanned);
  if (!found) return null;
  // Compared as text, not decoded bytes: base64url's last character has spare bits, so an edited one would decode alike.
  const expected = encodeBase64urlNoPadding(await signatureOf(env, found.passId));
  if (found.signature.length !== expected.length) return null;
  // Constant time: every character is compared whatever the first difference.
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ found.signature.charCodeAt(i);
  return difference === 0 ? found.passId : null;
}

/** The club's date today in its own time zone (YYYY-MM-DD): a card is valid through its last local day. */
export async function clubToday(db: Db, clubId: string, now: number): Promise<string> {
  const [club] = await db.select({ timezone: clubs.timezone }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  const zone = club?.timezone && isTimeZone(club.timezone) ? club.timezone : "UTC";
  return localInputOf(now, zone).slice(0, 10);
}

export interface CheckOutcome {
  result: CheckResult;
  /** Shown only for a pass of this club. */
  pass: Pick<PassRow, "id" | "holderName" | "kind" | "number" | "season" | "validUntil" | "revokeReason"> | null;
}

/**
 * Verifies a scanned code at a club's check-in and records the check (time, who, result). The check's one-time
 * id makes a form sent twice record once.
 */
export async function checkIn(
  env: Env,
  db: Db,
  input: { clubId: string; userId: string; scanned: string; checkId: string },
  now: number,
): Promise<CheckOutcome> {
  const passId = await verifiedPassId(env, input.scanned);
  const [pass] = passId ? await db.select().from(passes).where(eq(passes.id, passId)).limit(1) : [];
  let outcome: CheckOutcome;
  if (!pass) outcome = { result: "unknown", pass: null };
  else if (pass.clubId !== input.clubId) outcome = { result: "other_club", pass: null };
  else {
    const { id, holderName, kind, number, season, validUntil, revokeReason } = pass;
    outcome = { result: passState(pass, await clubToday(db, input.clubId, now)), pass: { id, holderName, kind, number, season, validUntil, revokeReason } };
  }
  // Another club's pass is recorded without its id: this club may not learn whose card it was.
  await db
    .insert(passChecks)
    .values({ id: input.checkId, clubId: input.clubId, passId: outcome.pass?.id ?? null, userId: input.userId, result: outcome.result, checkedAt: now })
    .onConflictDoNothing();
  return outcome;
}

export interface PassCard {
  pass: PassRow;
  clubName: string;
  state: ReturnType<typeof passState>;
  lastCheck: { checkedAt: number; result: CheckResult } | null;
  qrSvg: string;
}

/** The card behind a signed link (origin: the site the link is opened on), or null when the link is not ours. */
export async function passCard(env: Env, db: Db, passId: string, token: string, origin: string, now: number): Promise<PassCard | null> {
  if ((await verifiedPassId(env, token)) !== passId) return null;
  const [row] = await db
    .select({ pass: passes, clubName: clubs.name })
    .from(passes)
    .innerJoin(clubs, eq(clubs.id, passes.clubId))
    .where(eq(passes.id, passId))
    .limit(1);
  if (!row) return null;
  const [last] = await db
    .select({ checkedAt: passChecks.checkedAt, result: passChecks.result })
    .from(passChecks)
    .where(and(eq(passChecks.passId, passId), eq(passChecks.clubId, row.pass.clubId)))
    .orderBy(desc(passChecks.checkedAt))
    .limit(1);
  const url = `${origin}${await passCardPath(env, passId)}`;
  return {
    pass: row.pass,
    clubName: row.clubName,
    state: passState(row.pass, await clubToday(db, row.pass.clubId, now)),
    lastCheck: last ?? null,
    qrSvg: qrSvg(url, "QR code of this card"),
  };
}

const isoDay = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message);

/** A pass issued by hand on the club's Passes page; its one-time id is its source, so a double click issues one. */
export const handPassSchema = z
  .object({
    submission: z.uuid(),
    kind: z.enum(["pass", "member_card"]),
    holder_name: z.string().trim().min(1, PASS_MESSAGES.holderName).max(200, PASS_MESSAGES.holderName),
    holder_email: z.union([z.literal(""), z.email(PASS_MESSAGES.holderEmail).max(254, PASS_MESSAGES.holderEmail)]),
    season: z.string().trim().min(1, PASS_MESSAGES.season).max(50, PASS_MESSAGES.season),
    valid_from: isoDay(PASS_MESSAGES.validFrom),
    valid_until: isoDay(PASS_MESSAGES.validUntil),
    lang: z.enum(["en", "fr"], PASS_MESSAGES.lang).default("en"),
  })
  .refine((p) => p.valid_until >= p.valid_from, { path: ["valid_until"], message: PASS_MESSAGES.order });

export const revokeSchema = z.object({
  pass: z.uuid(),
  reason: z.string().trim().min(1, PASS_MESSAGES.reason).max(300, PASS_MESSAGES.reason),
});

/** The hand form's card; the caller issues it (issueCard also mails it). */
export function handIssue(club: { id: string; siteId: string | null }, input: z.output<typeof handPassSchema>): IssueInput {
  return {
    clubId: club.id,
    siteId: club.siteId,
    kind: input.kind,
    holderName: input.holder_name,
    holderEmail: input.holder_email || null,
    season: input.season,
    validFrom: input.valid_from,
    validUntil: input.valid_until,
    source: `hand:${input.submission}`,
    lang: input.lang,
  };
}
