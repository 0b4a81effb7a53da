/**
 * A registered person as a racer (issue 24): the racer fields a registration form fills, through the form's
 * racer field mapping (racer-mapping.ts: defaults by type and caption, the organiser's overrides), converted
 * to what the racer holds (sex M or F, dates YYYY-MM-DD, province codes, the race's custom field types). The
 * racer remembers where it came from in `imported_from` (`registration:<individual id>`), so a later sync
 * updates or removes the same racer and never adds a second.
 */
import type { FormElement, StoredValue } from "../forms/model";
import {
  answerText,
  customValueOf,
  CUSTOM_TARGET_PREFIX,
  defaultRacerMapping,
  racerDateOf,
  racerProvinceOf,
  racerSexOf,
  type RaceCustomField,
} from "./racer-mapping";

export const ENTRY_SOURCE_PREFIX = "registration:";

export interface RacerEntry {
  /** `registration:<individual id>`: the racer's imported_from. */
  source: string;
  first_name: string;
  last_name: string;
  sex: "M" | "F" | null;
  dob: string | null;
  province: string | null;
  city: string | null;
  club: string | null;
  team: string | null;
  category: string | null;
  chip: string | null;
  licence: string | null;
  /** The race's custom fields the mapping fills, by key (the others keep what the racer has). */
  custom: Record<string, string | number | boolean | null>;
}

export function entrySource(individualId: string): string {
  return `${ENTRY_SOURCE_PREFIX}${individualId}`;
}

/** The racer fields one registered person fills; without a mapping, the defaults found by type and caption. */
export function racerEntryOf(
  elements: readonly FormElement[],
  nameFields: { firstNameFieldId: string | null; lastNameFieldId: string | null },
  person: { id: string; values: Record<string, StoredValue> },
  mapping: Readonly<Record<string, string>> = defaultRacerMapping(elements, nameFields, []),
  custom: readonly RaceCustomField[] = [],
): RacerEntry {
  const text = (target: string): string | null => {
    const element = elements.find((e) => e.id === mapping[target]);
    return element ? answerText(element, person.values[element.id]) : null;
  };
  const customValues: RacerEntry["custom"] = {};
  for (const field of custom) {
    const target = `${CUSTOM_TARGET_PREFIX}${field.key}`;
    if (mapping[target]) customValues[field.key] = customValueOf(field, text(target));
  }
  return {
    source: entrySource(person.id),
    first_name: text("first_name") ?? "",
    last_name: text("last_name") ?? "",
    sex: racerSexOf(text("sex")),
    dob: racerDateOf(text("dob")),
    province: racerProvinceOf(text("province")),
    city: text("city"),
    club: text("club"),
    team: text("team"),
    category: text("category"),
    chip: text("chip")?.slice(0, 64) ?? null,
    licence: text("licence"),
    custom: customValues,
  };
}
