/**
 * Result group membership (who is ranked together) and the result group types the setup offers
 * (timing.md section 2, "Result group types offered").
 */
import { ageInRange, ageOn } from "./age-classes";
import type { Course, Criterion, FieldValue, Racer, ResultGroupSpec, StartGroup } from "./model";

/** Names a criterion can use besides the racer's own fields; they win over a custom field of the same name. */
const BUILT_IN_FIELDS: Record<string, (racer: Racer) => FieldValue> = {
  bib: (racer) => racer.bib,
  course: (racer) => racer.courseId,
  startgroup: (racer) => racer.startGroupId,
  first_name: (racer) => racer.firstName,
  last_name: (racer) => racer.lastName,
};

function fieldValue(racer: Racer, field: string): FieldValue | undefined {
  const builtIn = BUILT_IN_FIELDS[field];
  return builtIn !== undefined ? builtIn(racer) : racer.fields[field];
}

function isBlank(value: FieldValue | undefined): boolean {
  return value === null || value === undefined || value === "";
}

/** A number, or a string that is one (blank and non-numeric strings, booleans and null are not). */
function asNumber(value: FieldValue | undefined): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** Numbers compare as numbers (either side a number); everything else as text, ignoring case; blank equals blank. */
function valuesEqual(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  if (isBlank(a) || isBlank(b)) return isBlank(a) && isBlank(b);
  if (typeof a === "number" || typeof b === "number") {
    const x = asNumber(a);
    return x !== null && x === asNumber(b);
  }
  return String(a).toLowerCase() === String(b).toLowerCase();
}

/** lt/le/gt/ge: both sides must be numbers; a non-number never matches. */
function compareNumbers(a: FieldValue | undefined, b: FieldValue | undefined, holds: (x: number, y: number) => boolean): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  return x !== null && y !== null && holds(x, y);
}

function asList(value: Criterion["value"]): FieldValue[] {
  return Array.isArray(value) ? value : [value];
}

/** A single (non-list) criterion value; a list given to a single-value op uses its first entry. */
function single(value: Criterion["value"]): FieldValue | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function criterionHolds(criterion: Criterion, racer: Racer): boolean {
  const actual = fieldValue(racer, criterion.field);
  switch (criterion.op) {
    case "eq":
      return valuesEqual(actual, single(criterion.value));
    case "ne":
      return !valuesEqual(actual, single(criterion.value));
    case "in":
      return asList(criterion.value).some((v) => valuesEqual(actual, v));
    case "lt":
      return compareNumbers(actual, single(criterion.value), (x, y) => x < y);
    case "le":
      return compareNumbers(actual, single(criterion.value), (x, y) => x <= y);
    case "gt":
      return compareNumbers(actual, single(criterion.value), (x, y) => x > y);
    case "ge":
      return compareNumbers(actual, single(criterion.value), (x, y) => x >= y);
    case "blank":
      return isBlank(actual);
    case "notblank":
      return !isBlank(actual);
    case "age": {
      // No birth date (or no day to take the age on) is in no age class.
      const age = ageOn(actual, criterion.on);
      return age !== null && ageInRange(age, criterion.value);
    }
  }
}

/** Every condition of the group holds: its course, its start group and each criterion. */
export function inGroup(spec: ResultGroupSpec, racer: Racer): boolean {
  if (spec.courseId !== null && spec.courseId !== racer.courseId) return false;
  if (spec.startGroupId !== null && spec.startGroupId !== racer.startGroupId) return false;
  return spec.criteria.every((criterion) => criterionHolds(criterion, racer));
}

function groupSpec(
  id: string,
  name: string,
  ordinal: number,
  conditions: Partial<Pick<ResultGroupSpec, "courseId" | "startGroupId" | "criteria">>,
): ResultGroupSpec {
  return { id, name, ordinal, courseId: null, startGroupId: null, criteria: [], sameTimeThreshold: null, ...conditions };
}

/** "All Racers in One List". */
export function allRacersGroup(): ResultGroupSpec {
  return groupSpec("all", "All Racers", 0, {});
}

/** "Group Racers by Course": one group per course, in the order given. */
export function groupsByCourse(courses: readonly Course[]): ResultGroupSpec[] {
  return courses.map((course, i) => groupSpec(`course:${course.id}`, course.name, i, { courseId: course.id }));
}

/** "Group by Start Order": one group per start group, by start group ordinal (start groups have no name). */
export function groupsByStartOrder(startGroups: readonly StartGroup[]): ResultGroupSpec[] {
  return [...startGroups]
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((group, i) => groupSpec(`startgroup:${group.id}`, `Start Group ${group.ordinal}`, i, { startGroupId: group.id }));
}

/** Values one field group stands for: numbers by value, text ignoring case (as eq compares them). */
function groupingKey(value: FieldValue): string {
  const number = asNumber(value);
  return number !== null ? `n:${number}` : `s:${String(value).toLowerCase()}`;
}

/**
 * "Create New Result Groups" from a racer field: one group per distinct value, named by the value, in the
 * order values first appear. Values that differ only in case (or "5" and 5) make one group; blank values
 * make none, as a blank is no group to be ranked in.
 */
export function groupsFromField(field: string, values: readonly FieldValue[]): ResultGroupSpec[] {
  const distinct = new Map<string, FieldValue>();
  for (const value of values) {
    if (!isBlank(value) && !distinct.has(groupingKey(value))) distinct.set(groupingKey(value), value);
  }
  return [...distinct.values()].map((value, i) => groupSpec(`field:${field}:${String(value)}`, String(value), i, { criteria: [{ field, op: "eq", value }] }));
}
