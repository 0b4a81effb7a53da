/**
 * Registrations become racers (issue 24): when a cart of a form linked to a race completes, each of its people
 * is entered in the race of their link (durable/race/registration-entries.ts): the race of the option they
 * chose, else the form's (decision 0058). A person whose option changed leaves the old race and enters the new
 * one; a removed person or cart takes its racer out. The RaceRoom finds each racer by the person it came from,
 * and the person remembers where they were entered, so a sync is safe to repeat: the organiser's "Re-sync"
 * runs every complete cart of the form again.
 */
import { and, eq } from "drizzle-orm";
import { linkedRaceIds, placesOf, rememberedPlaces, samePlace, type RacerPlace } from "../../core/registration/race-links";
import { racerEntryOf, entrySource, ENTRY_SOURCE_PREFIX } from "../../core/registration/racer-entry";
import { chipHandout, oneChip } from "../../core/gochips/handouts";
import type { FormElement } from "../../core/forms/model";
import type { StoredRacer } from "../../schema/race/engine-input";
import { defaultRacerMapping, effectiveRacerMapping, raceCustomFieldsOf } from "../../core/registration/racer-mapping";
import type { PlacedEntry } from "../../durable/race/registration-entries";
import { carts, individuals, registrations, type Db } from "../../schema/d1";
import { getClubRaceCatalogues, roomOf } from "./race-access";
import { formRaceLinksOf, RACER_SYNC_MESSAGES } from "./race-links";
import { listElements } from "./registration-forms";
import { bookFor, followSyncedChips, registrationChip } from "./racer-chips";

export { RACER_SYNC_MESSAGES };

type Room = Awaited<ReturnType<typeof roomOf>>;

export type RacerSyncResult = { ok: true; created: number; updated: number; removed: number } | { ok: false; error: string };

/** Enters the people of the given carts (every complete cart of the form when null) in the races of their links. */
export async function syncRegistrationRacers(env: Env, db: Db, registrationId: string, cartIds: readonly string[] | null): Promise<RacerSyncResult> {
  const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId)).limit(1);
  if (!registration) return { ok: false, error: RACER_SYNC_MESSAGES.noRace };
  const links = formRaceLinksOf(registration);
  const linked = linkedRaceIds(links);
  if (linked.length === 0) return { ok: false, error: RACER_SYNC_MESSAGES.noRace };
  const elements = await listElements(db, registration.id);
  const rows = await db
    .select({ individual: individuals, cartRemoved: carts.isRemoved })
    .from(individuals)
    .innerJoin(carts, eq(carts.id, individuals.cartId))
    .where(and(eq(individuals.registrationId, registration.id), eq(carts.isComplete, true)));
  const wanted = cartIds ? new Set(cartIds) : null;
  // A person counts when paid for in a kept cart; anyone else who was entered leaves their race.
  const people = rows
    .filter(({ individual }) => !wanted || wanted.has(individual.cartId))
    .map(({ individual, cartRemoved }) => {
      const kept = !cartRemoved && !individual.isRemoved && individual.isComplete;
      return { individual, targets: kept ? placesOf(links, individual.values) : [], previous: rememberedPlaces(individual.racerPlace) };
    });
  // Every race a person is or was entered in: the links' races, and where a moved person was.
  const raceIds = [...new Set([...linked, ...people.flatMap((p) => p.previous.map((place) => place.race))])];
  const catalogues = await getClubRaceCatalogues(db, registration.clubId, raceIds);
  if (linked.some((id) => !catalogues.some((c) => c.id === id))) return { ok: false, error: RACER_SYNC_MESSAGES.raceGone };
  const total = { created: 0, updated: 0, removed: 0 };
  for (const race of catalogues) {
    const room = await roomOf(env, race);
    const { custom, mapping } = await mappingOf(room, elements, registration);
    const entries: PlacedEntry[] = [];
    const removed: string[] = [];
    for (const { individual, targets, previous } of people) {
      // A racer per race the person's answers name (several for a multi-choice field); every other race lets them go.
      const target = targets.find((place) => place.race === race.id);
      if (!target) {
        removed.push(entrySource(individual.id));
        continue;
      }
      const before = previous.find((place) => place.race === race.id) ?? null;
      const entry = racerEntryOf(elements, registration, individual, mapping, custom);
      entries.push({ ...entry, course: target.course, start_group: target.start_group, moved: before !== null && !samePlace(before, target) });
    }
    // A typed chip goes through the depots' rule: a faulty or lost one is left out, never the racer (decision 0077).
    const book = await bookFor(
      db,
      race.id,
      entries.map((e) => e.chip),
    );
    for (const entry of entries) if (entry.chip) entry.chip = registrationChip(book, entry.chip);
    const reply = await room.syncRegistrationEntries({ entries, removed });
    if (!reply.ok) return { ok: false, error: Object.values(reply.errors).join(" ") };
    await followSyncedChips(env, db, race.id, reply.chips);
    total.created += reply.created;
    total.updated += reply.updated;
    total.removed += reply.removed;
  }
  await rememberPlaces(db, people);
  return { ok: true, ...total };
}

/** The race's custom fields and which form field fills which racer field (decision 0058). */
async function mappingOf(room: Room, elements: FormElement[], registration: typeof registrations.$inferSelect) {
  const custom = raceCustomFieldsOf((await room.settings())?.fields_list ?? []);
  return { custom, mapping: effectiveRacerMapping(defaultRacerMapping(elements, registration, custom), registration.racerFieldMap ?? {}, elements) };
}

/**
 * Why a racer made from a registration has no chip though their person typed one: the depots refused it, faulty
 * or lost (decision 0077). Read when the racer page opens, so it says what holds now; null otherwise.
 */
export async function refusedRegistrationChip(db: Db, race: { id: string; clubId: string }, room: Room, racer: StoredRacer): Promise<string | null> {
  const source = racer.data.imported_from;
  if (racer.data.chip || !source?.startsWith(ENTRY_SOURCE_PREFIX)) return null;
  const [row] = await db
    .select({ individual: individuals, registration: registrations })
    .from(individuals)
    .innerJoin(registrations, eq(registrations.id, individuals.registrationId))
    .where(and(eq(individuals.id, source.slice(ENTRY_SOURCE_PREFIX.length)), eq(registrations.clubId, race.clubId)))
    .limit(1);
  if (!row) return null;
  const elements = await listElements(db, row.registration.id);
  const { custom, mapping } = await mappingOf(room, elements, row.registration);
  const typed = racerEntryOf(elements, row.registration, row.individual, mapping, custom).chip;
  if (!typed) return null;
  const handout = chipHandout(racer.id, oneChip(null), oneChip(typed), await bookFor(db, race.id, [typed]));
  return handout.ok ? null : `The chip typed at registration (${typed}) was not given to this racer: ${handout.problem}`;
}

/** Where each person now is, once every race took its entries, so the next change knows what to move. */
async function rememberPlaces(db: Db, people: { individual: { id: string }; targets: RacerPlace[]; previous: RacerPlace[] }[]) {
  const same = (a: RacerPlace[], b: RacerPlace[]) => a.length === b.length && a.every((place, i) => samePlace(place, b[i] ?? null));
  const changed = people.filter((p) => !same(p.previous, p.targets));
  // One place is stored as before (single choice); several as a list; none as null.
  const stored = (targets: RacerPlace[]) => (targets.length === 0 ? null : targets.length === 1 ? targets[0]! : targets);
  const updates = changed.map((p) =>
    db
      .update(individuals)
      .set({ racerPlace: stored(p.targets) })
      .where(eq(individuals.id, p.individual.id)),
  );
  // D1 takes a bounded batch; each update is its own statement and repeating one is harmless.
  for (let i = 0; i < updates.length; i += 50) {
    const chunk = updates.slice(i, i + 50);
    if (chunk.length > 0) await db.batch(chunk as [(typeof chunk)[0], ...typeof chunk]);
  }
}
