/**
 * Registrations become racers (issue 24): when a cart of a form linked to a race completes, each of its people
 * is entered in the race (durable/race/registration-entries.ts), and a removed person or cart takes its racer
 * out. The RaceRoom finds each racer by the person it came from, so a sync is safe to repeat: the organiser's
 * "Re-sync" runs every complete cart of the form again.
 */
import { and, asc, eq } from "drizzle-orm";
import { racerEntryOf, entrySource } from "../../core/registration/racer-entry";
import { carts, individuals, races, registrations, type Db } from "../../schema/d1";
import { getClubRaceCatalogue, roomOf } from "./race-access";
import { listElements } from "./registration-forms";

export type RacerSyncResult = { ok: true; created: number; updated: number; removed: number } | { ok: false; error: string };

export const RACER_SYNC_MESSAGES = {
  noRace: "This form is not linked to a race.",
  raceGone: "The race this form is linked to no longer exists.",
  notThisRace: "Choose one of this race's courses and start groups.",
} as const;

export interface RaceLinkChoices {
  races: { id: string; name: string }[];
  courses: { id: string; name: string }[];
  startGroups: { id: string; name: string }[];
}

/** The club's races, and the courses and start groups of the linked race, for the form's settings. */
export async function raceLinkChoices(env: Env, db: Db, registration: { clubId: string; raceId: string | null }): Promise<RaceLinkChoices> {
  const clubRaces = await db.select({ id: races.id, name: races.name }).from(races).where(eq(races.clubId, registration.clubId)).orderBy(asc(races.startTime));
  const race = registration.raceId ? await getClubRaceCatalogue(db, registration.clubId, registration.raceId) : null;
  if (!race) return { races: clubRaces, courses: [], startGroups: [] };
  const room = await roomOf(env, race);
  const named = (docs: { id: string; data: { name?: string | null } }[]) => docs.map((d) => ({ id: d.id, name: d.data.name || d.id }));
  return { races: clubRaces, courses: named(await room.documents("Course")), startGroups: named(await room.documents("StartGroup")) };
}

/**
 * Links the form to one of its club's races (or unlinks it with a null race). A course or start group must be
 * the race's own; choosing another race clears them. Existing entries are entered by "Re-sync".
 */
export async function linkRegistrationRace(
  env: Env,
  db: Db,
  registration: { id: string; clubId: string; raceId: string | null },
  link: { raceId: string | null; courseId: string | null; startGroupId: string | null },
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  if (!link.raceId) {
    await db.update(registrations).set({ raceId: null, raceCourseId: null, raceStartGroupId: null }).where(eq(registrations.id, registration.id));
    return { ok: true };
  }
  const race = await getClubRaceCatalogue(db, registration.clubId, link.raceId);
  if (!race) return { ok: false, errors: { race: RACER_SYNC_MESSAGES.raceGone } };
  const sameRace = registration.raceId === link.raceId;
  const courseId = sameRace ? link.courseId : null;
  const startGroupId = sameRace ? link.startGroupId : null;
  if (courseId || startGroupId) {
    const choices = await raceLinkChoices(env, db, { clubId: registration.clubId, raceId: link.raceId });
    if (courseId && !choices.courses.some((c) => c.id === courseId)) return { ok: false, errors: { course: RACER_SYNC_MESSAGES.notThisRace } };
    if (startGroupId && !choices.startGroups.some((g) => g.id === startGroupId)) return { ok: false, errors: { start_group: RACER_SYNC_MESSAGES.notThisRace } };
  }
  await db
    .update(registrations)
    .set({ raceId: link.raceId, raceCourseId: courseId, raceStartGroupId: startGroupId })
    .where(eq(registrations.id, registration.id));
  return { ok: true };
}

/** Enters the people of the given carts (every complete cart of the form when null) in the form's race. */
export async function syncRegistrationRacers(env: Env, db: Db, registrationId: string, cartIds: readonly string[] | null): Promise<RacerSyncResult> {
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!registration?.raceId) return { ok: false, error: RACER_SYNC_MESSAGES.noRace };
  const race = await getClubRaceCatalogue(db, registration.clubId, registration.raceId);
  if (!race) return { ok: false, error: RACER_SYNC_MESSAGES.raceGone };
  const elements = await listElements(db, registration.id);
  const rows = await db
    .select({ individual: individuals, cartComplete: carts.isComplete, cartRemoved: carts.isRemoved })
    .from(individuals)
    .innerJoin(carts, eq(carts.id, individuals.cartId))
    .where(and(eq(individuals.registrationId, registration.id), eq(carts.isComplete, true)));
  const wanted = cartIds ? new Set(cartIds) : null;
  const entries = [];
  const removed: string[] = [];
  for (const { individual, cartRemoved } of rows) {
    if (wanted && !wanted.has(individual.cartId)) continue;
    // A person counts when paid for in a kept cart; anyone else who was entered leaves the race.
    if (cartRemoved || individual.isRemoved || !individual.isComplete) removed.push(entrySource(individual.id));
    else entries.push(racerEntryOf(elements, registration, individual));
  }
  const room = await roomOf(env, race);
  const reply = await room.syncRegistrationEntries({ entries, removed, courseId: registration.raceCourseId, startGroupId: registration.raceStartGroupId });
  return reply.ok ? reply : { ok: false, error: Object.values(reply.errors).join(" ") };
}
