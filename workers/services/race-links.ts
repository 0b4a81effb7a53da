/**
 * A form's race links (issue 24, decision 0058): the form's own race, course and start group, the races of the
 * options of one choice field, and which form field fills which racer field. One check serves the settings
 * page and the data API, so both refuse another club's race, or a course or start group of another race, with
 * RACER_SYNC_MESSAGES' words.
 */
import { asc, eq } from "drizzle-orm";
import { isRaceChoiceField, raceOptionLinksSchema, type FormRaceLinks, type RaceOptionLink, type RacerPlace } from "../../core/registration/race-links";
import { defaultRacerMapping, effectiveRacerMapping, mappingTargetsOf, raceCustomFieldsOf, type MappingTarget } from "../../core/registration/racer-mapping";
import { labelIn } from "../../core/forms/bilingual";
import type { FormElement } from "../../core/forms/model";
import { races, registrations, type Db } from "../../schema/d1";
import { getClubRaceCatalogue, roomOf } from "./race-access";

export const RACER_SYNC_MESSAGES = {
  noRace: "This form is not linked to a race.",
  raceGone: "The race this form is linked to no longer exists.",
  notThisRace: "Choose one of this race's courses and start groups.",
  notChoiceField: "Choose a choice field of this form.",
  notAnOption: "Link only options of the chosen field.",
  notAField: "Choose a field of this form.",
} as const;

type RegistrationLinks = Pick<
  typeof registrations.$inferSelect,
  "raceId" | "raceCourseId" | "raceStartGroupId" | "raceOptionField" | "raceOptionLinks" | "racerFieldMap"
>;

export function formRaceLinksOf(registration: RegistrationLinks): FormRaceLinks {
  const place = registration.raceId ? { race: registration.raceId, course: registration.raceCourseId, start_group: registration.raceStartGroupId } : null;
  return { place, optionField: registration.raceOptionField, optionLinks: registration.raceOptionLinks ?? [] };
}

export interface RaceParts {
  courses: { id: string; name: string }[];
  startGroups: { id: string; name: string }[];
  /** The race's custom racer fields (its fields_list). */
  fields: ReturnType<typeof raceCustomFieldsOf>;
}

/** A club race's courses, start groups and custom racer fields, or null when the race is not the club's. */
export async function racePartsOf(env: Env, db: Db, clubId: string, raceId: string): Promise<RaceParts | null> {
  const race = await getClubRaceCatalogue(db, clubId, raceId);
  if (!race) return null;
  const room = await roomOf(env, race);
  const named = (docs: { id: string; data: { name?: string | null } }[]) => docs.map((d) => ({ id: d.id, name: d.data.name || d.id }));
  const [courses, startGroups, settings] = await Promise.all([room.documents("Course"), room.documents("StartGroup"), room.settings()]);
  return { courses: named(courses), startGroups: named(startGroups), fields: raceCustomFieldsOf(settings?.fields_list ?? []) };
}

/** The links as they would be stored, by the names the settings page and the data API share. */
export interface RaceLinksWrite {
  place: RacerPlace | null;
  optionField: string | null;
  optionLinks: RaceOptionLink[];
  fieldMap: Record<string, string>;
}

/**
 * Errors keyed race, course, start_group, option_field, option.<id>.race|course|start_group and map.<target>;
 * empty when the links are sound. Races are the club's; courses and start groups their race's own.
 */
export async function raceLinkProblems(
  env: Env,
  db: Db,
  clubId: string,
  elements: readonly FormElement[],
  next: RaceLinksWrite,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const parts = new Map<string, RaceParts | null>();
  const partsOf = async (raceId: string) => {
    if (!parts.has(raceId)) parts.set(raceId, await racePartsOf(env, db, clubId, raceId));
    return parts.get(raceId)!;
  };
  const checkPlace = async (place: RacerPlace, prefix: string) => {
    const race = await partsOf(place.race);
    if (!race) errors[`${prefix}race`] = RACER_SYNC_MESSAGES.raceGone;
    else if (place.course && !race.courses.some((c) => c.id === place.course)) errors[`${prefix}course`] = RACER_SYNC_MESSAGES.notThisRace;
    else if (place.start_group && !race.startGroups.some((g) => g.id === place.start_group)) errors[`${prefix}start_group`] = RACER_SYNC_MESSAGES.notThisRace;
  };
  if (next.place) await checkPlace(next.place, "");
  if (next.optionField) {
    const field = elements.find((e) => e.id === next.optionField);
    if (!field || !isRaceChoiceField(field)) errors.option_field = RACER_SYNC_MESSAGES.notChoiceField;
    for (const link of next.optionLinks) {
      if (field && !field.options_list.some((o) => o.id === link.option)) errors[`option.${link.option}.race`] = RACER_SYNC_MESSAGES.notAnOption;
      else await checkPlace(link, `option.${link.option}.`);
    }
  } else if (next.optionLinks.length > 0) errors.option_field = RACER_SYNC_MESSAGES.notChoiceField;
  const ids = new Set(elements.map((e) => e.id));
  for (const [target, id] of Object.entries(next.fieldMap)) if (id !== "" && !ids.has(id)) errors[`map.${target}`] = RACER_SYNC_MESSAGES.notAField;
  return errors;
}

/** Saves the links after the shared check; errors as raceLinkProblems keys them. */
export async function saveRaceLinks(
  env: Env,
  db: Db,
  registration: { id: string; clubId: string },
  elements: readonly FormElement[],
  next: RaceLinksWrite,
): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
  const errors = await raceLinkProblems(env, db, registration.clubId, elements, next);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  await db
    .update(registrations)
    .set({
      raceId: next.place?.race ?? null,
      raceCourseId: next.place?.course ?? null,
      raceStartGroupId: next.place?.start_group ?? null,
      raceOptionField: next.optionField,
      raceOptionLinks: next.optionField ? next.optionLinks : [],
      racerFieldMap: next.fieldMap,
    })
    .where(eq(registrations.id, registration.id));
  return { ok: true };
}

/** The data API's Registration rule: the same check on the entity as it would be stored (api field names). */
export async function registrationLinkProblems(env: Env, db: Db, next: Readonly<Record<string, unknown>>, elements: readonly FormElement[]) {
  const text = (key: string) => (typeof next[key] === "string" && next[key] !== "" ? (next[key] as string) : null);
  const race = text("race");
  const links = raceOptionLinksSchema.safeParse(next.race_option_links ?? []);
  const write: RaceLinksWrite = {
    place: race ? { race, course: text("race_course"), start_group: text("race_start_group") } : null,
    optionField: text("race_option_field"),
    optionLinks: links.success ? links.data : [],
    fieldMap: (next.racer_field_map as Record<string, string> | null) ?? {},
  };
  if (!write.place && (text("race_course") || text("race_start_group"))) return { race_course: RACER_SYNC_MESSAGES.noRace };
  const problems = await raceLinkProblems(env, db, text("club") ?? "", elements, write);
  const byApiField: Record<string, string> = {};
  for (const [key, message] of Object.entries(problems)) {
    const field = key.startsWith("option.")
      ? "race_option_links"
      : key.startsWith("map.")
        ? "racer_field_map"
        : ({ race: "race", course: "race_course", start_group: "race_start_group", option_field: "race_option_field" } as Record<string, string>)[key]!;
    byApiField[field] ??= message;
  }
  return byApiField;
}

export interface RaceLinkView {
  races: { id: string; name: string }[];
  /** The form's linked race's courses and start groups. */
  formRace: RaceParts | null;
  choiceFields: { id: string; label: string; options: { id: string; label: string }[] }[];
  /** Each linked option's race parts, by race id. */
  optionRaces: Record<string, RaceParts>;
  targets: MappingTarget[];
  /** The mapping in force (defaults with the organiser's choices over them) and the defaults alone. */
  mapping: Record<string, string>;
  defaults: Record<string, string>;
}

/** What the form's settings page shows of its links: the club's races, each linked race's parts, the mapping. */
export async function raceLinkView(env: Env, db: Db, registration: typeof registrations.$inferSelect, elements: readonly FormElement[]): Promise<RaceLinkView> {
  const clubRaces = await db.select({ id: races.id, name: races.name }).from(races).where(eq(races.clubId, registration.clubId)).orderBy(asc(races.startTime));
  const links = formRaceLinksOf(registration);
  const formRace = links.place ? await racePartsOf(env, db, registration.clubId, links.place.race) : null;
  const optionRaces: Record<string, RaceParts> = {};
  for (const raceId of new Set(links.optionLinks.map((l) => l.race))) {
    const parts = await racePartsOf(env, db, registration.clubId, raceId);
    if (parts) optionRaces[raceId] = parts;
  }
  const custom = [...(formRace?.fields ?? []), ...Object.values(optionRaces).flatMap((r) => r.fields)].filter(
    (f, i, all) => all.findIndex((g) => g.key === f.key) === i,
  );
  const defaults = defaultRacerMapping(elements, registration, custom);
  const label = (caption: string) => labelIn(caption, "en") || "(no caption)";
  return {
    races: clubRaces,
    formRace,
    choiceFields: elements.filter(isRaceChoiceField).map((e) => ({
      id: e.id,
      label: label(e.caption),
      options: e.options_list.map((o) => ({ id: o.id, label: label(String(o.display ?? o.id)) })),
    })),
    optionRaces,
    targets: mappingTargetsOf(custom),
    mapping: effectiveRacerMapping(defaults, registration.racerFieldMap ?? {}, elements),
    defaults,
  };
}
