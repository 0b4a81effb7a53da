/**
 * A membership's member card follows the membership (decision 0063), whichever path changed it (the division
 * pages, /_admin/divisions or the data API, all through the entity service): removing the membership revokes
 * its card in the removal's batch ("Membership removed"), moving it to another season revokes the old season's
 * card in the change's batch, and a membership created or moved is then issued a new card with its mail. A
 * revoked card is never reinstated; its source is freed so the membership's next card is a new one.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { CARD_REVOKE_REASONS, memberCardSource } from "../../core/passes/pass-status";
import { divisionMembers, divisionPeople, divisionSeasons, entityChanges, passes, passMails, type Db } from "../../schema/d1";
import { issueCard, queueCardMails } from "./card-mails";
import type { HistoryAuthor } from "./entity-history";
import type { FieldChange } from "./field-change";
import { revokeStatements } from "./passes";

const DAY_MS = 86_400_000;

/** The name a card prints for a person. */
const holderNameOf = (first: unknown, last: unknown) => `${String(first ?? "")} ${String(last ?? "")}`.trim();

/** A random v4 UUID per row of an INSERT … SELECT (one id from JS would collide on a person's second card). */
const rowUuid = sql`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/** The person's member cards still in force: those of their memberships' sources, not revoked. */
const cardsOfPerson = (personId: string) =>
  and(
    eq(passes.kind, "member_card"),
    isNull(passes.revokedTime),
    sql`${passes.source} IN (SELECT 'member:' || ${divisionMembers.id} FROM ${divisionMembers} WHERE ${divisionMembers.personId} = ${personId})`,
  )!;

/** The card's source once its membership let go of it: still unique, never matched by a membership again. */
const retiredSource = (memberId: string, at: number) => `${memberCardSource(memberId)}:retired:${at}`;

function retire(db: Db, clubId: string, memberId: string, reason: string, author: HistoryAuthor, guard = sql`1`) {
  const source = memberCardSource(memberId);
  return [
    ...revokeStatements(db, clubId, and(eq(passes.source, source), guard)!, reason, author),
    db
      .update(passes)
      .set({ source: retiredSource(memberId, author.at) })
      .where(and(eq(passes.clubId, clubId), eq(passes.source, source), guard)),
  ];
}

/** For a removal's batch: a removed membership's card is revoked, with its history. */
export function cardOfRemovedMembership(db: Db, classname: string, id: string, row: Readonly<Record<string, unknown>>, author: HistoryAuthor) {
  if (classname !== "DivisionMember" || typeof row.club !== "string") return [];
  return retire(db, row.club, id, CARD_REVOKE_REASONS.membershipRemoved, author);
}

/**
 * For a change's batch: a membership moved to another season has its old card revoked. Guarded by the version the
 * change read, like its history, so a change that lost its race revokes nothing.
 */
export function cardOfMovedMembership({ db, classname, id, changed, merged, version, author }: FieldChange) {
  if (classname !== "DivisionMember" || !("season" in changed) || typeof merged.club !== "string") return [];
  const won = sql`EXISTS (SELECT 1 FROM ${divisionMembers} WHERE ${divisionMembers.id} = ${id} AND CAST(${divisionMembers.fieldMtimes} AS TEXT) = ${version})`;
  return retire(db, merged.club, id, CARD_REVOKE_REASONS.membershipMoved, author, won);
}

/** Whether a change of this class's fields reaches the person's cards (their printed name or their address). */
export const followsOnCards = (classname: string, changed: Readonly<Record<string, unknown>>) =>
  classname === "DivisionPerson" && ["first_name", "last_name", "email"].some((f) => f in changed);

/**
 * For a person's correction batch: every unrevoked member card of theirs takes the corrected name and address in
 * place (number and QR code stay valid), with the card's history, and a new address gets the card's link once (a
 * mail row per card, queued after the batch). Guarded by the version the correction read, so a correction that
 * lost its race (a double submit) changes and mails nothing.
 */
export function cardsFollowPerson({ db, classname, id, changed, merged, version, author }: FieldChange) {
  if (!followsOnCards(classname, changed) || typeof merged.club !== "string") return [];
  const won = sql`EXISTS (SELECT 1 FROM ${divisionPeople} WHERE ${divisionPeople.id} = ${id} AND CAST(${divisionPeople.fieldMtimes} AS TEXT) = ${version})`;
  const name = holderNameOf(merged.first_name, merged.last_name);
  const email = typeof merged.email === "string" && merged.email !== "" ? merged.email : null;
  const open = and(eq(passes.clubId, merged.club), cardsOfPerson(id), won);
  const history = (field: string, column: typeof passes.holderName | typeof passes.holderEmail, value: string | null) =>
    db.insert(entityChanges).select(
      sql`SELECT ${rowUuid}, 'Pass', ${passes.id}, ${field}, 'changed', CASE WHEN ${column} IS NULL THEN NULL ELSE json_quote(${column}) END, ${JSON.stringify(value)}, ${author.userId}, ${author.appId}, ${author.at}
            FROM ${passes} WHERE ${open} AND ${column} IS NOT ${value}`,
    );
  return [
    history("holder_name", passes.holderName, name),
    history("holder_email", passes.holderEmail, email),
    // The link to the new address, once per card: only a card whose address this batch changes.
    ...(email === null
      ? []
      : [
          db.insert(passMails).select(
            sql`SELECT ${rowUuid}, ${passes.id}, ${passes.clubId}, ${email}, ${passes.lang}, 'queued', 0, ${author.at}, ${author.at}
                  FROM ${passes} WHERE ${open} AND ${passes.holderEmail} IS NOT ${email}`,
          ),
        ]),
    db
      .update(passes)
      .set({
        holderName: name,
        holderEmail: email,
        fieldMtimes: sql`json_set(${passes.fieldMtimes}, '$.holder_name', ${author.at}, '$.holder_email', ${author.at})`,
      })
      .where(and(open, sql`(${passes.holderName} IS NOT ${name} OR ${passes.holderEmail} IS NOT ${email})`)),
  ];
}

/** After a correction: the person's cards' mails still waiting go on the queue (the consumer's claim sends each once). */
export async function queuePersonCardMails(env: Env, db: Db, personId: string): Promise<void> {
  const cards = await db.select({ id: passes.id }).from(passes).where(cardsOfPerson(personId));
  for (const card of cards) await queueCardMails(env, db, card.id);
}

/** Whether a write of this class, with these changed fields, needs the membership's card issued after it. */
export const needsMemberCard = (classname: string, changed: Readonly<Record<string, unknown>> | null) =>
  classname === "DivisionMember" && (changed === null || "season" in changed);

/**
 * Issues the membership's card for its season, to its person in their language, and mails it; found again when
 * it already has one. `lang` overrides the person's (a paid membership's registration language).
 */
export async function issueMemberCard(env: Env, db: Db, memberId: string, now: number, lang?: "en" | "fr") {
  const [found] = await db
    .select({ member: divisionMembers, person: divisionPeople, season: divisionSeasons })
    .from(divisionMembers)
    .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
    .innerJoin(divisionSeasons, eq(divisionSeasons.id, divisionMembers.seasonId))
    .where(eq(divisionMembers.id, memberId))
    .limit(1);
  if (!found) return null;
  const { member, person, season } = found;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return issueCard(
    env,
    db,
    {
      clubId: member.clubId,
      siteId: member.siteId,
      kind: "member_card",
      holderName: holderNameOf(person.firstName, person.lastName),
      holderEmail: person.email,
      season: season.name,
      // A season's end is exclusive (the moment after its last day).
      validFrom: day(season.startsAt),
      validUntil: day(season.endsAt - DAY_MS),
      source: memberCardSource(member.id),
      lang: lang ?? person.lang,
    },
    now,
  );
}
