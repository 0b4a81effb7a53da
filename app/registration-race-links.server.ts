/**
 * The form settings page's race links section (decision 0058): what it shows and how its posted form becomes
 * the links the race-links service checks and saves. A course or start group posted with a race other than
 * the saved one is dropped (the selects offered were the old race's), as is an option of a field not yet saved.
 */
import type { registrations } from "../schema/d1";
import type { RaceLinksWrite, RaceLinkView } from "../workers/services/race-links";

type Registration = typeof registrations.$inferSelect;

// An overlong id is kept (cut short) so the check refuses it as no race of the club, rather than reading it as none.
const idOf = (value: string | undefined) => (value ? value.slice(0, 200) : null);

export function raceLinksFromPost(values: Readonly<Record<string, string | undefined>>, saved: Registration, view: RaceLinkView): RaceLinksWrite {
  const race = idOf(values.race);
  const sameRace = race !== null && race === saved.raceId;
  const place = race ? { race, course: sameRace ? idOf(values.course) : null, start_group: sameRace ? idOf(values.start_group) : null } : null;
  const optionField = idOf(values.option_field);
  const field = optionField === saved.raceOptionField ? view.choiceFields.find((f) => f.id === optionField) : undefined;
  const optionLinks = (field?.options ?? []).flatMap((option) => {
    const optionRace = idOf(values[`option.${option.id}.race`]);
    if (!optionRace) return [];
    const before = (saved.raceOptionLinks ?? []).find((l) => l.option === option.id);
    const same = before?.race === optionRace;
    const part = (name: string) => (same ? idOf(values[`option.${option.id}.${name}`]) : null);
    return [{ option: option.id, race: optionRace, course: part("course"), start_group: part("start_group") }];
  });
  // A target left at its default keeps following the default (a field renamed or added later).
  const fieldMap: Record<string, string> = {};
  for (const target of view.targets) {
    const posted = values[`map.${target.key}`];
    if (posted === undefined) continue;
    if (posted !== (view.defaults[target.key] ?? "")) fieldMap[target.key] = posted.slice(0, 64);
  }
  return { place, optionField, optionLinks, fieldMap };
}

/** The values the section's selects start with. */
export function raceLinkValues(saved: Registration, view: RaceLinkView): Record<string, string> {
  const values: Record<string, string> = {
    race: saved.raceId ?? "",
    course: saved.raceCourseId ?? "",
    start_group: saved.raceStartGroupId ?? "",
    option_field: saved.raceOptionField ?? "",
  };
  for (const link of saved.raceOptionLinks ?? []) {
    values[`option.${link.option}.race`] = link.race;
    values[`option.${link.option}.course`] = link.course ?? "";
    values[`option.${link.option}.start_group`] = link.start_group ?? "";
  }
  for (const target of view.targets) values[`map.${target.key}`] = view.mapping[target.key] ?? "";
  return values;
}
