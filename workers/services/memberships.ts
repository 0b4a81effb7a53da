/**
 * The Membership System (issue 25, decision 0036): a division's seasons, the members a paid membership panel
 * creates or renews, and the division reports of the Division Reports role. Recording is safe to repeat: a
 * person is found again by their key and a membership by its season, so a retried job changes nothing twice.
 */
import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import * as z from "zod";
import { memberDetailsOf, personKey, programsChosen, seasonFor, seasonsOverlap } from "../../core/memberships/membership";
import { carts, divisionMembers, divisionPeople, divisionSeasons, divisions, individuals, registrations, type Db } from "../../schema/d1";
import { issueMemberCard } from "./member-cards";
import { receiptLang } from "./receipts";
import { listElements } from "./registration-forms";

export const MEMBERSHIP_MESSAGES = {
  seasonName: "Name the season, for example 2026–27",
  startDate: "Enter the first day of the season",
  endDate: "Enter the last day of the season",
  order: "The season must end after it starts",
  overlap: (name: string) => `This season overlaps the season ${name}; a division's seasons may not overlap`,
  sameName: "This division already has a season with this name",
} as const;

const isoDate = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message);

export const seasonSchema = z
  .object({
    name: z.string().trim().min(1, MEMBERSHIP_MESSAGES.seasonName).max(60, MEMBERSHIP_MESSAGES.seasonName),
    starts: isoDate(MEMBERSHIP_MESSAGES.startDate),
    ends: isoDate(MEMBERSHIP_MESSAGES.endDate),
  })
  .refine((s) => s.ends >= s.starts, { path: ["ends"], message: MEMBERSHIP_MESSAGES.order });

export type DivisionRow = typeof divisions.$inferSelect;
export type SeasonRow = typeof divisionSeasons.$inferSelect;

/** A season's dates as moments: from the start of its first day to the end of its last (UTC days). */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);
export const seasonDates = (season: Pick<SeasonRow, "startsAt" | "endsAt">) => ({
  starts: new Date(season.startsAt).toISOString().slice(0, 10),
  ends: new Date(season.endsAt - 86_400_000).toISOString().slice(0, 10),
});

export async function listSeasons(db: Db, divisionId: string): Promise<SeasonRow[]> {
  return db.select().from(divisionSeasons).where(eq(divisionSeasons.divisionId, divisionId)).orderBy(desc(divisionSeasons.startsAt));
}

/** Adds a season that overlaps none of the division's others. */
export async function addSeason(
  db: Db,
  division: DivisionRow,
  input: z.output<typeof seasonSchema>,
  now: number,
): Promise<{ ok: true; id: string } | { ok: false; errors: Record<string, string> }> {
  const span = { startsAt: dayStart(input.starts), endsAt: dayStart(input.ends) + 86_400_000 };
  const existing = await listSeasons(db, division.id);
  if (existing.some((s) => s.name.toLowerCase() === input.name.toLowerCase())) return { ok: false, errors: { name: MEMBERSHIP_MESSAGES.sameName } };
  const clash = existing.find((s) => seasonsOverlap(s, span));
  if (clash) return { ok: false, errors: { starts: MEMBERSHIP_MESSAGES.overlap(clash.name) } };
  const id = crypto.randomUUID();
  // The unique name index settles two tabs adding the same season at once: the second adds nothing.
  const added = await db
    .insert(divisionSeasons)
    .values({ id, createdAt: now, divisionId: division.id, clubId: division.clubId, siteId: division.siteId, name: input.name, ...span })
    .onConflictDoNothing()
    .returning({ id: divisionSeasons.id });
  return added.length === 1 ? { ok: true, id } : { ok: false, errors: { name: MEMBERSHIP_MESSAGES.sameName } };
}

/** The division a membership panel sells for: the one the field names, else the club's first. */
async function divisionFor(db: Db, clubId: string, named: string | null | undefined): Promise<DivisionRow | null> {
  const where = named ? and(eq(divisions.id, named), eq(divisions.clubId, clubId)) : eq(divisions.clubId, clubId);
  const [division] = await db.select().from(divisions).where(where).orderBy(asc(divisions.createdAt)).limit(1);
  return division ?? null;
}

export interface RecordOutcome {
  recorded: number;
  /** People whose membership could not be placed: no division, or no season for the date. */
  unplaced: number;
}

/**
 * Creates or renews the members of the paid people in the given carts (every complete cart of the form when
 * null). A person already known to the division keeps their member number; a second run finds both rows.
 */
export async function recordMembers(env: Env, db: Db, registrationId: string, cartIds: readonly string[] | null, now: number): Promise<RecordOutcome> {
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!registration) return { recorded: 0, unplaced: 0 };
  const elements = await listElements(db, registration.id);
  const panel = elements.find((e) => e.type === "membership");
  if (!panel) return { recorded: 0, unplaced: 0 };
  const division = await divisionFor(db, registration.clubId, panel.config.division_id);
  const scope = cartIds ? inArray(individuals.cartId, [...cartIds]) : undefined;
  const people = await db
    .select({ individual: individuals, cartLang: carts.lang })
    .from(individuals)
    .innerJoin(carts, eq(carts.id, individuals.cartId))
    .where(
      and(eq(individuals.registrationId, registration.id), eq(carts.isComplete, true), eq(carts.isRemoved, false), eq(individuals.isRemoved, false), scope),
    )
    // Member numbers follow the order people paid in.
    .orderBy(asc(individuals.paidAt), asc(carts.completedAt), asc(individuals.ordinal));
  const seasons = division ? await listSeasons(db, division.id) : [];
  const outcome: RecordOutcome = { recorded: 0, unplaced: 0 };
  for (const { individual, cartLang } of people) {
    if (!individual.isComplete) continue;
    const details = memberDetailsOf(elements, registration, individual);
    if (!details) continue;
    const season = seasonFor(seasons, individual.paidAt ?? now);
    if (!division || !season) {
      outcome.unplaced++;
      continue;
    }
    const owners = { divisionId: division.id, clubId: division.clubId, siteId: division.siteId };
    const key = personKey(details);
    // The language they registered in: their card and reminders are written in it (decision 0063).
    const lang = receiptLang({ lang: cartLang }, registration);
    // The next member number is read inside the insert, so two payments at once cannot take the same one.
    const [person] = await db
      .insert(divisionPeople)
      .values({
        id: crypto.randomUUID(),
        createdAt: now,
        ...owners,
        memberNumber: sql`(SELECT COALESCE(MAX(${divisionPeople.memberNumber}), 0) + 1 FROM ${divisionPeople} WHERE ${divisionPeople.divisionId} = ${division.id})`,
        personKey: key,
        firstName: details.firstName,
        lastName: details.lastName,
        birthDate: details.birthDate,
        gender: details.gender,
        email: details.email,
        lang,
      })
      .onConflictDoUpdate({
        target: [divisionPeople.divisionId, divisionPeople.personKey],
        set: {
          email: sql`COALESCE(excluded.email, ${divisionPeople.email})`,
          gender: sql`COALESCE(excluded.gender, ${divisionPeople.gender})`,
          lang: sql`excluded.lang`,
        },
      })
      .returning({ id: divisionPeople.id });
    const [member] = await db
      .insert(divisionMembers)
      .values({
        id: crypto.randomUUID(),
        createdAt: now,
        ...owners,
        personId: person!.id,
        seasonId: season.id,
        memberClass: details.memberClass,
        attributes: { registration: registration.id, division_fees: details.divisionFees },
        programs: programsChosen(elements, individual.values, division.programsList),
        expiresAt: season.endsAt,
        individualId: individual.id,
      })
      .onConflictDoUpdate({
        target: [divisionMembers.seasonId, divisionMembers.personId],
        set: {
          memberClass: details.memberClass,
          individualId: individual.id,
          attributes: { registration: registration.id, division_fees: details.divisionFees },
        },
      })
      .returning({ id: divisionMembers.id });
    // The season's member card and its mail, in the language they registered in; found again when the job runs twice.
    await issueMemberCard(env, db, member!.id, now, lang);
    outcome.recorded++;
  }
  return outcome;
}

export interface MemberLine {
  memberId: string;
  memberNumber: number;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  gender: string | null;
  email: string | null;
  memberClass: string;
  programs: string[];
  expiresAt: number;
  renewed: boolean;
}

export interface DivisionReport {
  season: SeasonRow | null;
  total: number;
  byClass: { key: string; count: number }[];
  byGender: { key: string; count: number }[];
  byProgram: { key: string; count: number }[];
  renewed: number;
  firstTime: number;
  /** Members of the season before who have not renewed. */
  lapsed: { memberNumber: number; name: string; email: string | null; memberClass: string }[];
  members: MemberLine[];
}

const MAX_LISTED = 500;

/** The membership report of one season (the running one when none is named). */
export async function divisionReport(db: Db, division: DivisionRow, seasonId: string | null, now: number): Promise<DivisionReport> {
  const seasons = await listSeasons(db, division.id);
  const season = (seasonId ? seasons.find((s) => s.id === seasonId) : seasonFor(seasons, now)) ?? null;
  const empty: DivisionReport = { season, total: 0, byClass: [], byGender: [], byProgram: [], renewed: 0, firstTime: 0, lapsed: [], members: [] };
  if (!season) return empty;
  const earlier = seasons.filter((s) => s.startsAt < season.startsAt);
  const before = earlier[0] ?? null;
  const rows = await db
    .select({ member: divisionMembers, person: divisionPeople })
    .from(divisionMembers)
    .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
    .where(eq(divisionMembers.seasonId, season.id))
    .orderBy(asc(divisionPeople.lastName), asc(divisionPeople.firstName));
  const earlierMembers = earlier.length
    ? await db
        .select({ personId: divisionMembers.personId, seasonId: divisionMembers.seasonId })
        .from(divisionMembers)
        .where(and(eq(divisionMembers.divisionId, division.id), lt(divisionMembers.expiresAt, season.endsAt)))
    : [];
  const earlierPeople = new Set(earlierMembers.filter((m) => m.seasonId !== season.id).map((m) => m.personId));
  const thisSeason = new Set(rows.map((r) => r.person.id));
  const lapsedIds = before ? earlierMembers.filter((m) => m.seasonId === before.id && !thisSeason.has(m.personId)).map((m) => m.personId) : [];
  const lapsed = lapsedIds.length
    ? await db
        .select({ person: divisionPeople, memberClass: divisionMembers.memberClass })
        .from(divisionPeople)
        .innerJoin(divisionMembers, and(eq(divisionMembers.personId, divisionPeople.id), eq(divisionMembers.seasonId, before!.id)))
        .where(inArray(divisionPeople.id, lapsedIds.slice(0, MAX_LISTED)))
        .orderBy(asc(divisionPeople.lastName))
    : [];
  const tally = (keys: string[]) =>
    [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count);
  const renewed = rows.filter((r) => earlierPeople.has(r.person.id)).length;
  return {
    season,
    total: rows.length,
    byClass: tally(rows.map((r) => r.member.memberClass)),
    byGender: tally(rows.map((r) => r.person.gender ?? "Not given")),
    byProgram: tally(rows.flatMap((r) => r.member.programs)),
    renewed,
    firstTime: rows.length - renewed,
    lapsed: lapsed.map((l) => ({
      memberNumber: l.person.memberNumber,
      name: `${l.person.firstName} ${l.person.lastName}`,
      email: l.person.email,
      memberClass: l.memberClass,
    })),
    members: rows.slice(0, MAX_LISTED).map((r) => memberLine(r, earlierPeople)),
  };
}

function memberLine(
  row: { member: typeof divisionMembers.$inferSelect; person: typeof divisionPeople.$inferSelect },
  earlier: ReadonlySet<string>,
): MemberLine {
  return {
    memberId: row.member.id,
    memberNumber: row.person.memberNumber,
    firstName: row.person.firstName,
    lastName: row.person.lastName,
    birthDate: row.person.birthDate,
    gender: row.person.gender,
    email: row.person.email,
    memberClass: row.member.memberClass,
    programs: row.member.programs,
    expiresAt: row.member.expiresAt,
    renewed: earlier.has(row.person.id),
  };
}

/** Every member of a season, for the CSV file. */
export async function seasonMembers(db: Db, season: SeasonRow): Promise<MemberLine[]> {
  const rows = await db
    .select({ member: divisionMembers, person: divisionPeople })
    .from(divisionMembers)
    .innerJoin(divisionPeople, eq(divisionPeople.id, divisionMembers.personId))
    .where(eq(divisionMembers.seasonId, season.id))
    .orderBy(asc(divisionPeople.memberNumber));
  const earlier = await db
    .select({ personId: divisionMembers.personId })
    .from(divisionMembers)
    .where(and(eq(divisionMembers.divisionId, season.divisionId), lt(divisionMembers.expiresAt, season.endsAt)));
  const before = new Set(earlier.map((e) => e.personId));
  return rows.map((r) => memberLine(r, before));
}
