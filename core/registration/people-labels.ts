/**
 * People labels (Registration.people_labels): what the form calls one registrant and several, such as
 * "racer" and "racers" or "skater" and "skaters". Stored as { singular, plural }, each in the bilingual
 * tag format of core/forms/bilingual, so a bilingual form can say "coureur" in French. Unset, the flow says
 * "person" and "people".
 */
import { formatBilingual, splitLabel, type Lang } from "../forms/bilingual";

export interface PeopleLabels {
  singular: string;
  plural: string;
}

export const PEOPLE_LABEL_KEYS = ["singular", "plural"] as const;
export type PeopleLabelKey = (typeof PEOPLE_LABEL_KEYS)[number];

/** A label is a word or two; longer text would break the headings it appears in. */
export const PEOPLE_LABEL_MAX = 40;

export const DEFAULT_PEOPLE_LABELS: Readonly<Record<Lang, PeopleLabels>> = {
  en: { singular: "person", plural: "people" },
  fr: { singular: "personne", plural: "personnes" },
};

/**
 * The labels in `lang`: the stored label's part in that language, else (in French) its English part, else
 * the default. An English page never shows a French-only word: it says "person" instead.
 */
export function peopleLabelsIn(stored: Readonly<Record<string, string>> | null | undefined, lang: Lang): PeopleLabels {
  const pick = (key: PeopleLabelKey) => {
    const { en, fr, untagged } = splitLabel(stored?.[key] ?? "");
    const english = en || untagged;
    return (lang === "fr" ? fr || english : english) || DEFAULT_PEOPLE_LABELS[lang][key];
  };
  return { singular: pick("singular"), plural: pick("plural") };
}

/** "1 racer", "3 racers". */
export function countOfPeople(count: number, labels: PeopleLabels): string {
  return `${count} ${count === 1 ? labels.singular : labels.plural}`;
}

/** The label starting with a capital, for headings: "Racer 2", "Racers". */
export function capitalised(label: string): string {
  return label.charAt(0).toLocaleUpperCase() + label.slice(1);
}

/** The stored form of the settings inputs: each key present only when some language has text. */
export function storedPeopleLabels(typed: Readonly<Record<PeopleLabelKey, { en: string; fr: string }>>): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const key of PEOPLE_LABEL_KEYS) {
    const en = typed[key].en.trim();
    const fr = typed[key].fr.trim();
    if (en === "" && fr === "") continue;
    stored[key] = fr === "" ? en : formatBilingual(en, fr);
  }
  return stored;
}

/** The settings inputs of a stored label: its English (or untagged) and French parts. */
export function peopleLabelParts(stored: Readonly<Record<string, string>> | null | undefined, key: PeopleLabelKey): { en: string; fr: string } {
  const parts = splitLabel(stored?.[key] ?? "");
  return { en: parts.en ?? parts.untagged, fr: parts.fr ?? "" };
}
