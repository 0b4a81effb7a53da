/**
 * Activities (issue 27, decision 0052): the club's catalogue of activity types, and the tags that put a
 * registration form, a race or an event page under them. Tags are a join (activity_tags), so tagging a race
 * never writes the race's own row, which its RaceRoom keeps. Every query is scoped to the club or the site.
 */
import { and, asc, eq, gte, inArray, isNull, or } from "drizzle-orm";
import { type ACTIVITY_SUBJECTS, activities, activityTags, eventPages, races, registrations, type Db } from "../../schema/d1";
import { groupedBy } from "../../core/lists/group";

export type ActivitySubject = (typeof ACTIVITY_SUBJECTS)[number];
export interface ActivityChoice {
  id: string;
  name: string;
  sport: string | null;
}

/** An object carries at most this many activities; more is a catalogue, not a tag. */
export const MAX_TAGS = 20;

export const ACTIVITY_WORDS = {
  notYours: "Choose activities of this club",
  noSubject: "This form, race or event page is not the club's",
  tooMany: `Choose at most ${MAX_TAGS} activities`,
} as const;

/** The club's own activities and the platform-wide ones, active, by name. */
export async function activitiesOfClub(db: Db, clubId: string): Promise<ActivityChoice[]> {
  return db
    .select({ id: activities.id, name: activities.name, sport: activities.sport })
    .from(activities)
    .where(and(or(eq(activities.clubId, clubId), isNull(activities.clubId)), eq(activities.isActive, true)))
    .orderBy(asc(activities.name))
    .limit(500);
}

/** The activity ids of each of these objects. */
export async function tagsOf(db: Db, kind: ActivitySubject, subjectIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (subjectIds.length === 0) return out;
  const rows = await db
    .select({ subject: activityTags.subjectId, activity: activityTags.activityId })
    .from(activityTags)
    .where(and(eq(activityTags.subjectKind, kind), inArray(activityTags.subjectId, [...subjectIds])));
  for (const [subject, tagged] of groupedBy(rows, (row) => row.subject))
    out.set(
      subject,
      tagged.map((row) => row.activity),
    );
  return out;
}

const SUBJECT_TABLES = { registration: registrations, race: races, event_page: eventPages } as const;

/** The club's forms, races and event pages, for the tagging page. */
export async function subjectsOfClub(db: Db, clubId: string): Promise<{ kind: ActivitySubject; id: string; name: string }[]> {
  const [forms, clubRaces, pages] = await Promise.all([
    db
      .select({ id: registrations.id, name: registrations.name })
      .from(registrations)
      .where(eq(registrations.clubId, clubId))
      .orderBy(asc(registrations.name))
      .limit(500),
    db.select({ id: races.id, name: races.name }).from(races).where(eq(races.clubId, clubId)).orderBy(asc(races.name)).limit(500),
    db.select({ id: eventPages.id, name: eventPages.name }).from(eventPages).where(eq(eventPages.clubId, clubId)).orderBy(asc(eventPages.name)).limit(500),
  ]);
  return [
    ...forms.map((s) => ({ kind: "registration" as const, ...s })),
    ...clubRaces.map((s) => ({ kind: "race" as const, ...s })),
    ...pages.map((s) => ({ kind: "event_page" as const, ...s })),
  ];
}

/**
 * Sets an object's activities to exactly these, in one batch: the object must be the club's and each
 * activity the club's or platform-wide. Sending the same set twice changes nothing, so a double click is harmless.
 */
export async function setTags(
  db: Db,
  clubId: string,
  kind: ActivitySubject,
  subjectId: string,
  activityIds: readonly string[],
): Promise<{ ok: true } | { ok: false; error: string }> {
  const wanted = [...new Set(activityIds)];
  if (wanted.length > MAX_TAGS) return { ok: false, error: ACTIVITY_WORDS.tooMany };
  const table = SUBJECT_TABLES[kind];
  const [subject] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.id, subjectId), eq(table.clubId, clubId)))
    .limit(1);
  if (!subject) return { ok: false, error: ACTIVITY_WORDS.noSubject };
  const offered = new Set((await activitiesOfClub(db, clubId)).map((a) => a.id));
  if (wanted.some((id) => !offered.has(id))) return { ok: false, error: ACTIVITY_WORDS.notYours };
  const clear = db.delete(activityTags).where(and(eq(activityTags.subjectKind, kind), eq(activityTags.subjectId, subjectId)));
  if (wanted.length === 0) await clear;
  else await db.batch([clear, db.insert(activityTags).values(wanted.map((activityId) => ({ subjectKind: kind, subjectId, activityId, clubId })))]);
  return { ok: true };
}

/** The activities tagged on a site's races listed from `since`, for the races list's filter. */
export async function activitiesOfSiteRaces(db: Db, siteId: string, since: number): Promise<ActivityChoice[]> {
  return db
    .selectDistinct({ id: activities.id, name: activities.name, sport: activities.sport })
    .from(activityTags)
    .innerJoin(races, and(eq(activityTags.subjectKind, "race"), eq(races.id, activityTags.subjectId)))
    .innerJoin(activities, eq(activities.id, activityTags.activityId))
    .where(and(eq(races.siteId, siteId), eq(races.visibility, "public"), gte(races.startTime, since)))
    .orderBy(asc(activities.name))
    .limit(100);
}

/** The race ids tagged with an activity: a subquery for the races list. */
export function racesWithActivity(db: Db, activityId: string) {
  return db
    .select({ id: activityTags.subjectId })
    .from(activityTags)
    .where(and(eq(activityTags.subjectKind, "race"), eq(activityTags.activityId, activityId)));
}
