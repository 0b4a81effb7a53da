/** Reordering a list by moving one entry: the builder's fields, a free-order race's segments. */

/**
 * The list with the entry whose id is `id` moved to `toIndex` (clamped to the list), as a drop or a
 * Move up / Move down puts it; an unknown id leaves the list as it was.
 */
export function movedTo<T extends { id: string }>(list: readonly T[], id: string, toIndex: number): T[] {
  const from = list.findIndex((entry) => entry.id === id);
  if (from < 0 || !Number.isInteger(toIndex)) return [...list];
  const next = [...list];
  const [entry] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, toIndex)), 0, entry!);
  return next;
}
