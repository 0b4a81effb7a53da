/** What a write changed, field by field: the lines of a history, whichever store the object lives in. */
export interface FieldChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

const same = (a: unknown, b: unknown): boolean =>
  Object.is(a, b) || (typeof a === "object" && typeof b === "object" && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** Each field whose value differs between two versions of an object, in the order of the newer's fields then removed ones. */
export function fieldChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (!same(before[field], value)) changes.push({ field, oldValue: before[field] ?? null, newValue: value ?? null });
  }
  for (const [field, value] of Object.entries(before)) {
    if (!(field in after) && value !== undefined && value !== null) changes.push({ field, oldValue: value, newValue: null });
  }
  return changes;
}
