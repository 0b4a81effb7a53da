/**
 * A registered person as a racer (issue 24): the racer fields a registration form can fill, read from the
 * person's answers by field type (names by the registration's name fields, date of birth, gender, province,
 * city, a text field captioned or keyed "club"). The racer remembers where it came from in `imported_from`
 * (`registration:<individual id>`), so a later sync updates or removes the same racer and never adds a second.
 */
import { labelIn } from "../forms/bilingual";
import type { FormElement, StoredValue } from "../forms/model";
import { nameFieldsOf } from "../forms/name-fields";

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
}

export function entrySource(individualId: string): string {
  return `${ENTRY_SOURCE_PREFIX}${individualId}`;
}

function text(value: StoredValue | undefined): string | null {
  const v = value?.v;
  return typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 200) : null;
}

function firstOfType(elements: readonly FormElement[], type: FormElement["type"]): FormElement | undefined {
  return elements.find((e) => e.type === type);
}

/** The racer fields one registered person fills. */
export function racerEntryOf(
  elements: readonly FormElement[],
  nameFields: { firstNameFieldId: string | null; lastNameFieldId: string | null },
  person: { id: string; values: Record<string, StoredValue> },
): RacerEntry {
  const { first, last } = nameFieldsOf(elements, nameFields);
  const valueOf = (element: FormElement | undefined) => (element ? person.values[element.id] : undefined);
  const dob = text(valueOf(firstOfType(elements, "dob")) ?? valueOf(firstOfType(elements, "date")));
  const gender = text(valueOf(firstOfType(elements, "gender")));
  const province = text(valueOf(firstOfType(elements, "province")));
  const clubField = elements.find((e) => e.type === "text" && (e.logic_key === "club" || /^club\b/i.test(labelIn(e.caption, "en").trim())));
  return {
    source: entrySource(person.id),
    first_name: (first ? text(person.values[first]) : null) ?? "",
    last_name: (last ? text(person.values[last]) : null) ?? "",
    // The racer's sex is M or F (timing.md); Other stays unset rather than guessed.
    sex: gender === "M" || gender === "F" ? gender : null,
    dob: dob && /^\d{4}-\d{2}-\d{2}$/.test(dob) ? dob : null,
    province: province ? province.slice(0, 8) : null,
    city: text(valueOf(firstOfType(elements, "city"))),
    club: text(valueOf(clubField)),
  };
}
