/**
 * Which race a registered person is entered in (issue 24, decision 0058): the form's own race link, or, when
 * the organiser linked the options of one choice field ("Distance: 5 km / 10 km"), the link of the option
 * the person chose. An option without a link of its own falls back to the form's.
 */
import * as z from "zod";
import type { FormElement, StoredValue } from "../forms/model";

/** A race, and the course and start group a racer is entered in (null: none chosen). */
export interface RacerPlace {
  race: string;
  course: string | null;
  start_group: string | null;
}

export interface RaceOptionLink extends RacerPlace {
  /** The option's id in the linked field's options_list. */
  option: string;
}

export interface FormRaceLinks {
  /** The form-level link; null when the form itself is not linked. */
  place: RacerPlace | null;
  /** The choice field whose options are linked; null: none. */
  optionField: string | null;
  optionLinks: readonly RaceOptionLink[];
}

const id = z.string().trim().min(1).max(64);
const optionalId = z
  .string()
  .trim()
  .max(64)
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));

export const RACE_LINK_LIMITS = { options: 200 } as const;

/** An option link as stored and as the data API takes it; one link per option. */
export const raceOptionLinksSchema = z
  .array(z.object({ option: id, race: id, course: optionalId, start_group: optionalId }).strict())
  .max(RACE_LINK_LIMITS.options)
  .refine((links) => new Set(links.map((l) => l.option)).size === links.length, "Link each option once");

/** Field types whose options may each have a race: one choice per person. */
export function isRaceChoiceField(element: Pick<FormElement, "type" | "options_list">): boolean {
  return element.type === "option" && element.options_list.length > 0;
}

/** The race, course and start group a person with these answers is entered in; null: none (not entered). */
export function placeOf(links: FormRaceLinks, values: Readonly<Record<string, StoredValue>>): RacerPlace | null {
  if (links.optionField) {
    const chosen = values[links.optionField]?.v;
    const link = typeof chosen === "string" ? links.optionLinks.find((l) => l.option === chosen) : undefined;
    if (link) return { race: link.race, course: link.course, start_group: link.start_group };
  }
  return links.place;
}

/** Every race the form's links name, the form's own first. */
export function linkedRaceIds(links: FormRaceLinks): string[] {
  const ids = [links.place?.race, ...(links.optionField ? links.optionLinks.map((l) => l.race) : [])];
  return [...new Set(ids.filter((v): v is string => !!v))];
}

export function samePlace(a: RacerPlace | null, b: RacerPlace | null): boolean {
  return (a?.race ?? null) === (b?.race ?? null) && (a?.course ?? null) === (b?.course ?? null) && (a?.start_group ?? null) === (b?.start_group ?? null);
}
