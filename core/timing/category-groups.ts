/**
 * "Create New Result Groups" (timing.md section 2, from racer fields; not for heats), as an organiser
 * expects it (issue 23, decision 0034): one group per value of a racer field, or per age class, each
 * optionally split by sex, with names people read ("Women 35–39", "U14 Men"). The groups are ordinary
 * result groups, so the engine ranks them live like any other.
 */
import { ageCriterion, type AgeBand, type AgeBasis } from "./age-classes";
import { groupsFromField } from "./groups";
import type { Criterion, FieldValue } from "./model";

/** timing.md section 2 offers "Create New Result Groups (from racer fields; not for heats)"; the refusal in words. */
export const CATEGORY_GROUPS_NOT_FOR_HEATS = "Create New Result Groups is not for heats: a sprint ranks its racers by its heats. Group by Start Order instead.";

/** One action makes at most this many groups (a field with a value per racer is a mistake, not categories). */
export const MAX_CATEGORY_GROUPS = 200;

export interface CategoryGroup {
  name: string;
  criteria: Criterion[];
}

export type CategorySource =
  | { kind: "field"; field: string; values: readonly FieldValue[] }
  | { kind: "age"; field: string; bands: readonly AgeBand[]; basis: AgeBasis };

/** The sexes a racer can have (Racer sex, M or F), women first, as results usually list them. */
const SEXES = [
  { value: "F", word: "Women" },
  { value: "M", word: "Men" },
] as const;

const SEX_WORDS: Record<string, string> = { f: "Women", m: "Men" };

/** A sex field's values read as words; any other value as it is. */
function valueName(field: string, value: FieldValue): string {
  const text = String(value);
  return field === "sex" ? (SEX_WORDS[text.toLowerCase()] ?? text) : text;
}

/** "U14 Men" and "Elite Women" (an under-class or a field value), but "Women 35–39" for an age range. */
function withSex(label: string, sexAfter: boolean, word: string): string {
  return sexAfter ? `${label} ${word}` : `${word} ${label}`;
}

/**
 * The groups a source makes, in order: classes youngest first or values as they first appear, and within
 * each, women then men when split by sex. Grouping the sex field by sex again splits nothing.
 */
export function categoryGroups(source: CategorySource, bySex: boolean): CategoryGroup[] {
  const base: (CategoryGroup & { label: string; sexAfter: boolean })[] =
    source.kind === "field"
      ? groupsFromField(source.field, source.values).map((g) => {
          const name = valueName(source.field, g.criteria[0]!.value as FieldValue);
          return { name, label: name, sexAfter: true, criteria: g.criteria };
        })
      : source.bands.map((band) => ({ name: band.label, label: band.label, sexAfter: band.under, criteria: [ageCriterion(source.field, band, source.basis)] }));
  if (!bySex || (source.kind === "field" && source.field === "sex")) return base.map(({ name, criteria }) => ({ name, criteria }));
  return base.flatMap((group) =>
    SEXES.map((sex) => ({
      name: withSex(group.label, group.sexAfter, sex.word),
      criteria: [...group.criteria, { field: "sex", op: "eq" as const, value: sex.value }],
    })),
  );
}
