/**
 * A membership's member card follows the membership (decision 0063), whichever path changed it (the division
 * pages, /_admin/divisions or the data API, all through the entity service): removing the membership revokes
 * its card in the removal's batch ("Membership removed"), moving it to another season revokes the old season's
 * card in the change's batch, and a membership created or moved is then issued a new card with its mail. A
 * revoked card is never reinstated; its source is freed so the membership's next card is a new one.
 */
import { and, eq, sql } from "drizzle-orm";
import { CARD_REVOKE_REASONS, memberCardSource } from "../../core/passes/pass-status";
import { divisionMembers, divisionPeople, divisionSeasons, passes, type Db } from "../../schema/d1";
import { issueCard } from "./card-mails";
import type { HistoryAuthor } from "./entity-history";
import { revokeStatements } from "./passes";

const DAY_MS = 86_400_000;

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
export function cardOfMovedMembership(
  db: Db,
  classname: string,
  id: string,
  changed: Readonly<Record<string, unknown>>,
  merged: Readonly<Record<string, unknown>>,
  version: string,
  author: HistoryAuthor,
) {
  if (classname !== "DivisionMember" || !("season" in changed) || typeof merged.club !== "string") return [];
  const won = sql`EXISTS (SELECT 1 FROM ${divisionMembers} WHERE ${divisionMembers.id} = ${id} AND CAST(${divisionMembers.fieldMtimes} AS TEXT) = ${version})`;
  return retire(db, merged.club, id, CARD_REVOKE_REASONS.membershipMoved, author, won);
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
      holderName: `${person.firstName} ${person.lastName}`.trim(),
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
