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

/**
 * Field types whose options may each have a race: a single choice (one race per person), or a multi-choice
 * ("Events: 5 km classic, 10 km skate"), which enters the person in the race of each option chosen (decision 0061).
 */
export function isRaceChoiceField(element: Pick<FormElement, "type" | "options_list">): boolean {
  return (element.type === "option" || element.type === "multioption") && element.options_list.length > 0;
}

/** The race, course and start group a person with these answers is entered in; null: none (not entered). */
export function placeOf(links: FormRaceLinks, values: Readonly<Record<string, StoredValue>>): RacerPlace | null {
  return placesOf(links, values)[0] ?? null;
}

/**
 * Every race a person with these answers is entered in, one place per race: the race of each linked option they
 * chose (several for a multi-choice field; the first option chosen wins a race two options share), else the
 * form's own. Empty: not entered.
 */
export function placesOf(links: FormRaceLinks, values: Readonly<Record<string, StoredValue>>): RacerPlace[] {
  const chosen = links.optionField ? values[links.optionField]?.v : undefined;
  const options = typeof chosen === "string" ? [chosen] : Array.isArray(chosen) ? chosen.filter((o): o is string => typeof o === "string") : [];
  const found = new Map<string, RacerPlace>();
  for (const option of options) {
    const link = links.optionLinks.find((l) => l.option === option);
    if (link && !found.has(link.race)) found.set(link.race, { race: link.race, course: link.course, start_group: link.start_group });
  }
  if (found.size > 0) return [...found.values()];
  return links.place ? [links.place] : [];
}

/** Where a person was last entered, as remembered: one place (single choice, before decision 0061) or several. */
export function rememberedPlaces(stored: RacerPlace | readonly RacerPlace[] | null | undefined): RacerPlace[] {
  if (!stored) return [];
  return Array.isArray(stored) ? [...(stored as readonly RacerPlace[])] : [stored as RacerPlace];
}

/** Every race the form's links name, the form's own first. */
export function linkedRaceIds(links: FormRaceLinks): string[] {
  const ids = [links.place?.race, ...(links.optionField ? links.optionLinks.map((l) => l.race) : [])];
  return [...new Set(ids.filter((v): v is string => !!v))];
}

export function samePlace(a: RacerPlace | null, b: RacerPlace | null): boolean {
  return (a?.race ?? null) === (b?.race ?? null) && (a?.course ?? null) === (b?.course ?? null) && (a?.start_group ?? null) === (b?.start_group ?? null);
}
