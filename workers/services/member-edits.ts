/**
 * A division's members changed by hand (issue 25, decision 0057): corrections to a person, a membership's
 * season, class, programs and note, adding a member and removing one. Changes and removals go through the
 * entity service, so the division page and the data API refuse the same writes with the same words and each
 * change lands with its history; adding writes the person and the membership in one batch with theirs.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import * as z from "zod";
import { can } from "../../core/access/policy";
import { initialMtimes } from "../../core/entity/field-mtimes";
import { MEMBER_CLASSES } from "../../core/forms/model";
import { personKey } from "../../core/memberships/membership";
import { divisionMembers, divisionPeople, divisionSeasons, type Db } from "../../schema/d1";
import { uniqueConstraintOf } from "../../schema/d1/errors";
import { DivisionMember, DivisionPerson } from "../../schema/entities/admin-classes";
import { divisionMemberRule, MEMBER_MESSAGES } from "./admin-entity-rules";
import { createdHistory, historyOf, type HistoryEntry } from "./entity-history";
import { changeEntity, readVisible, removeEntity, type Caller, type Changed, type EntityContext, type Outcome } from "./entity-service";
import { seasonDates, type DivisionRow } from "./memberships";
import { issueMemberCard } from "./member-cards";

export const MEMBER_EDIT_MESSAGES = {
  firstName: "Enter the first name",
  lastName: "Enter the last name",
  birthDate: "Enter the birth date as a date",
  email: "Enter an e-mail address, or leave it empty",
  season: MEMBER_MESSAGES.season,
  memberClass: "Choose the member class",
  note: "Keep the note under 1,000 characters",
  lang: "Choose English or French",
  stale: "Someone changed this member since you opened the page; reload to see their change",
  already: (season: string) => `This person is already a member in ${season}`,
  forbidden: "Your roles do not allow changing this division's members",
} as const;

const M = MEMBER_EDIT_MESSAGES;
// An empty or missing text field is "not given".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === undefined || (typeof v === "string" && v.trim() === "") ? null : v), schema.nullable());

export const personSchema = z.object({
  first_name: z.string().trim().min(1, M.firstName).max(200, M.firstName),
  last_name: z.string().trim().min(1, M.lastName).max(200, M.lastName),
  birth_date: optional(z.iso.date(M.birthDate)),
  gender: optional(z.string().trim().max(200)),
  email: optional(
    z
      .email(M.email)
      .max(320, M.email)
      .transform((e) => e.toLowerCase()),
  ),
  /** The language their mail is written in; absent from a form that does not show it, it stays as it is. */
  lang: z.enum(["en", "fr"], M.lang).optional(),
});

export const membershipSchema = z.object({
  season: z.uuid(M.season),
  member_class: z.enum(MEMBER_CLASSES, M.memberClass),
  programs: z.array(z.string().trim().min(1).max(100)).max(100),
  note: z.string().trim().max(1000, M.note).default(""),
});

export const addMemberSchema = z.object({
  ...personSchema.shape,
  ...membershipSchema.shape,
  submission: z.uuid(),
  // English unless chosen: every club site is English first, French beside it (decision 0063).
  lang: z.enum(["en", "fr"], M.lang).default("en"),
});

/** The field times a form showed, sent back with it: a field changed since is refused, never overwritten. */
export const fieldTimesSchema = z.preprocess(
  (v) => {
    try {
      return typeof v === "string" ? (JSON.parse(v) as unknown) : v;
    } catch {
      return null;
    }
  },
  z.record(z.string().max(64), z.number().int().min(0)).nullable(),
);

const mayEditDivision = (caller: Caller, division: DivisionRow) =>
  can(caller.principal, "edit", { area: "divisions", id: division.id, clubId: division.clubId, siteId: division.siteId });

const refused = (status: 400 | 403 | 404 | 409, message: string, fields?: Record<string, string>) =>
  ({ ok: false, refusal: { status, body: { error: status === 409 ? "conflict" : "invalid_request", message, ...(fields ? { fields } : {}) } } }) as const;

/** One member of this division the caller may see, with their person, or null. */
export async function readMember(context: EntityContext, caller: Caller, division: DivisionRow, memberId: string) {
  const member = await readVisible(context, caller, DivisionMember, memberId);
  if (!member || member.row.division !== division.id) return null;
  const person = await readVisible(context, caller, DivisionPerson, String(member.row.person));
  return person ? { member, person } : null;
}

/** A person's history and their memberships', newest first. */
export async function memberHistory(db: Db, memberId: string, personId: string): Promise<(HistoryEntry & { of: "person" | "membership" })[]> {
  const [membership, person] = await Promise.all([historyOf(db, DivisionMember, memberId), historyOf(db, DivisionPerson, personId)]);
  return [...membership.map((h) => ({ ...h, of: "membership" as const })), ...person.map((h) => ({ ...h, of: "person" as const }))].sort(
    (a, b) => b.changedAt - a.changedAt,
  );
}

/** Corrects a person's details (the entity service: rule, history, stale fields). */
export async function changePerson(
  context: EntityContext,
  caller: Caller,
  division: DivisionRow,
  memberId: string,
  input: z.output<typeof personSchema>,
  base: Record<string, number> | null,
): Promise<Outcome<Changed>> {
  const found = await readMember(context, caller, division, memberId);
  if (!found) return refused(404, "No such DivisionMember");
  const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return changeEntity(context, caller, DivisionPerson, found.person, body, base ?? undefined);
}

/** Changes a membership: its season (and so its end), class, programs and note. */
export async function changeMembership(
  context: EntityContext,
  caller: Caller,
  division: DivisionRow,
  memberId: string,
  input: z.output<typeof membershipSchema>,
  base: Record<string, number> | null,
): Promise<Outcome<Changed>> {
  const found = await readMember(context, caller, division, memberId);
  if (!found) return refused(404, "No such DivisionMember");
  const [season] = await context.db
    .select({ endsAt: divisionSeasons.endsAt })
    .from(divisionSeasons)
    .where(and(eq(divisionSeasons.id, input.season), eq(divisionSeasons.divisionId, division.id)));
  const attributes = { ...(found.member.row.attributes as Record<string, unknown>) };
  if (input.note) attributes.note = input.note;
  else delete attributes.note;
  const body = {
    season: input.season,
    // The end follows the season; an unknown season keeps the old end so the rule names the season, not the date.
    expires_at: season?.endsAt ?? found.member.row.expires_at,
    member_class: input.member_class,
    programs: input.programs,
    attributes,
  };
  return changeEntity(context, caller, DivisionMember, found.member, body, base ?? undefined);
}

/** Removes one membership; the person keeps their member number for another season. */
export async function removeMember(context: EntityContext, caller: Caller, division: DivisionRow, memberId: string): Promise<Outcome<null>> {
  const found = await readMember(context, caller, division, memberId);
  if (!found) return { ok: true, value: null }; // Removed already (a second click): nothing left to do.
  return removeEntity(context, caller, DivisionMember, found.member);
}

/**
 * Adds a member by hand: the person (found again by their key, else numbered next) and their membership of
 * the season, in one batch with both histories, then the season's member card. The form's one-time id is the
 * membership's id, so a second send finds the member the first made.
 */
export async function addMember(
  context: EntityContext,
  caller: Caller,
  division: DivisionRow,
  input: z.output<typeof addMemberSchema>,
): Promise<Outcome<{ memberId: string }>> {
  if (!mayEditDivision(caller, division)) return refused(403, M.forbidden);
  const { db, now } = context;
  const memberId = input.submission;
  const [done] = await db.select({ divisionId: divisionMembers.divisionId }).from(divisionMembers).where(eq(divisionMembers.id, memberId));
  if (done) return done.divisionId === division.id ? { ok: true, value: { memberId } } : refused(409, "This form was already used; reload the page");
  const key = personKey({ firstName: input.first_name, lastName: input.last_name, birthDate: input.birth_date, email: input.email });
  const [known] = await db
    .select({ id: divisionPeople.id })
    .from(divisionPeople)
    .where(and(eq(divisionPeople.divisionId, division.id), eq(divisionPeople.personKey, key)));
  const personId = known?.id ?? crypto.randomUUID();
  const [season] = await db
    .select()
    .from(divisionSeasons)
    .where(and(eq(divisionSeasons.id, input.season), eq(divisionSeasons.divisionId, division.id)));
  const owners = { division: division.id, club: division.clubId, site: division.siteId };
  const member = {
    ...owners,
    person: personId,
    season: input.season,
    member_class: input.member_class,
    programs: input.programs,
    attributes: { by_hand: true, ...(input.note ? { note: input.note } : {}) },
    expires_at: season?.endsAt ?? 0,
  };
  const problems = { ...(await divisionMemberRule(db, memberId, member, context.env)) };
  // A new person is written in the same batch, so the rule cannot find them yet.
  if (!known) delete problems.person;
  if (Object.keys(problems).length > 0) return refused(400, Object.values(problems)[0]!, problems);
  if (known) {
    const [twin] = await db
      .select({ id: divisionMembers.id })
      .from(divisionMembers)
      .where(and(eq(divisionMembers.personId, known.id), eq(divisionMembers.seasonId, input.season)));
    if (twin) return refused(409, M.already(season!.name), { season: M.already(season!.name) });
  }
  const person = {
    ...owners,
    first_name: input.first_name,
    last_name: input.last_name,
    birth_date: input.birth_date,
    gender: input.gender,
    email: input.email,
    lang: input.lang,
  };
  const author = { userId: caller.userId, appId: caller.appId || null, at: now };
  const own = { divisionId: division.id, clubId: division.clubId, siteId: division.siteId };
  const personWrites = known
    ? []
    : [
        db.insert(divisionPeople).values({
          id: personId,
          createdAt: now,
          fieldMtimes: initialMtimes(person, now),
          ...own,
          // The next number is read inside the insert, as a paid registration's is (decision 0036).
          memberNumber: sql`(SELECT COALESCE(MAX(${divisionPeople.memberNumber}), 0) + 1 FROM ${divisionPeople} WHERE ${divisionPeople.divisionId} = ${division.id})`,
          personKey: key,
          firstName: input.first_name,
          lastName: input.last_name,
          birthDate: input.birth_date,
          gender: input.gender,
          email: input.email,
          lang: input.lang,
        }),
        ...createdHistory(db, DivisionPerson, personId, person, author),
      ];
  try {
    await db.batch([
      ...personWrites,
      db.insert(divisionMembers).values({
        id: memberId,
        createdAt: now,
        fieldMtimes: initialMtimes(member, now),
        ...own,
        personId,
        seasonId: input.season,
        memberClass: input.member_class,
        attributes: member.attributes,
        programs: input.programs,
        expiresAt: member.expires_at,
      }),
      ...createdHistory(db, DivisionMember, memberId, member, author),
    ] as unknown as Parameters<Db["batch"]>[0]);
  } catch (error) {
    const broken = uniqueConstraintOf(error);
    if (!broken) throw error;
    // Two sends of one form raced (on the member's id or on the new person's key): the first made the member.
    const [first] = await db.select({ id: divisionMembers.id }).from(divisionMembers).where(eq(divisionMembers.id, memberId));
    if (first) return { ok: true, value: { memberId } };
    if (broken.includes("division_members.season_id")) return refused(409, M.already(season!.name), { season: M.already(season!.name) });
    return refused(409, "Someone added this person at the same moment; reload the page");
  }
  // The season's card, mailed to the member in their language (decision 0063).
  await issueMemberCard(context.env, db, memberId, now);
  return { ok: true, value: { memberId } };
}

/** The division's seasons as choices, newest first. */
export async function seasonChoices(db: Db, divisionId: string) {
  const rows = await db.select().from(divisionSeasons).where(eq(divisionSeasons.divisionId, divisionId)).orderBy(asc(divisionSeasons.startsAt));
  return rows.reverse().map((s) => ({ value: s.id, label: `${s.name} (${seasonDates(s).starts} to ${seasonDates(s).ends})` }));
}
