/**
 * "Create New Result Groups" on the result format page (timing.md section 2; issue 23, decision 0034):
 * reads the organiser's choice, makes the groups with core/timing/category-groups.ts, and writes them in
 * one go through the RaceRoom, which replaces same-named groups and refuses heats races.
 */
import * as z from "zod";
import { AGE_BASES, DEFAULT_AGE_BASIS, parseAgeBands } from "../core/timing/age-classes";
import { categoryGroups, type CategorySource } from "../core/timing/category-groups";
import type { Criterion } from "../core/timing/model";
import { racerFieldsOf as racerFieldValues } from "../schema/race/engine-input";
import type { FieldErrors } from "./components/form-kit";
import { checkbox, nullableText, text } from "./forms/field-rules";
import type { SetupAuthor } from "../durable/race/setup-history";
import type { Room } from "./race-documents.server";
import { groupableFields, type racerFieldsOf } from "./race-setup.server";
import { everyRacer } from "../workers/services/race-racers";

type CustomFields = ReturnType<typeof racerFieldsOf>;

/** Birth-date fields an age class can be taken from: the racer's date of birth, then the race's own date fields. */
export function birthDateFields(custom: CustomFields): { value: string; label: string }[] {
  return [
    { value: "dob", label: "Date of birth" },
    ...custom.filter((f) => f.type === "date").map((f) => ({ value: f.key, label: `${f.display} (${f.key})` })),
  ];
}

export const categoryGroupsFormSchema = z
  .object({
    source: z.enum(["field", "age"], { error: "Choose what the groups come from" }),
    field: nullableText(64),
    birth_field: text(64).default("dob"),
    age_classes: text(500),
    age_basis: z.enum(AGE_BASES).default(DEFAULT_AGE_BASIS),
    by_sex: checkbox,
  })
  .superRefine((v, ctx) => {
    if (v.source === "field" && !v.field) ctx.addIssue({ code: "custom", path: ["field"], message: "Choose a racer field" });
    if (v.source === "age") {
      const parsed = parseAgeBands(v.age_classes);
      if (!parsed.ok) ctx.addIssue({ code: "custom", path: ["age_classes"], message: parsed.message });
    }
  });
export type CategoryGroupsForm = z.output<typeof categoryGroupsFormSchema>;

/**
 * Makes the format's category groups. A field's groups come from the values racers have now (a value that
 * arrives later needs the action again); age classes cover everyone with a birth date.
 */
export async function createCategoryGroups(
  { room, author }: { room: Room; author: SetupAuthor },
  formatId: string,
  form: CategoryGroupsForm,
  custom: CustomFields,
): Promise<{ ok: true; created: number; replaced: number } | { ok: false; errors: FieldErrors }> {
  let source: CategorySource;
  if (form.source === "age") {
    if (!birthDateFields(custom).some((f) => f.value === form.birth_field)) return { ok: false, errors: { birth_field: "Choose a date field" } };
    const parsed = parseAgeBands(form.age_classes);
    if (!parsed.ok) return { ok: false, errors: { age_classes: parsed.message } };
    source = { kind: "age", field: form.birth_field, bands: parsed.bands, basis: form.age_basis };
  } else {
    const field = form.field!;
    if (!groupableFields(custom).some((f) => f.value === field)) return { ok: false, errors: { field: "Choose a racer field" } };
    const racers = await everyRacer(room);
    source = { kind: "field", field, values: racers.map((r) => racerFieldValues(r.data)[field] ?? null) };
  }
  const result = await room.saveCategoryGroups(formatId, categoryGroups(source, form.by_sex), author);
  return result.ok ? { ok: true, ...result.value } : { ok: false, errors: result.errors };
}

/** A stored criterion as the groups table reads it ("Date of birth age 35–39 on race day"). */
export function ageCriterionText(criterion: Pick<Criterion, "value" | "on">): string {
  const [min, max] = Array.isArray(criterion.value) ? criterion.value : [null, null];
  const ages =
    min === null ? `under ${Number(max) + 1}` : max === null ? `${String(min)} or older` : min === max ? String(min) : `${String(min)}–${String(max)}`;
  const on = criterion.on === "year_end" ? "on 31 December" : criterion.on === "race_day" ? "on race day" : `on ${criterion.on ?? "race day"}`;
  return `aged ${ages} ${on}`;
}
