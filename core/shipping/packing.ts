/**
 * A shipment's packing list (issue 27, decision 0051): what was asked for ("20 chip timing mats", "2
 * decoders"), each type's `included` types added per unit (a mat brings its cable), summed per type, and
 * grouped into boxes by `auto_pack_key` with the types' packing instructions. Pure and deterministic: the same
 * request in any order gives the same list; a type that includes itself, directly or through others, is refused.
 */

/** One `included` entry as stored: a type's key (one per unit), or a key with how many per unit. */
export type IncludedEntry = string | { key: string; quantity: number };

export interface PackingType {
  key: string;
  name: string;
  included: readonly IncludedEntry[];
  autoPackKey: string | null;
  packingInstructions: string | null;
  ordinal: number;
  isTracked: boolean;
  isRentable: boolean;
}

export interface RequestedLine {
  key: string;
  quantity: number;
}

export interface PackingLine {
  key: string;
  name: string;
  /** Everything of this type to pack: asked for plus included with others. */
  quantity: number;
  requested: number;
  included: number;
  isTracked: boolean;
  isRentable: boolean;
}

export interface PackingGroup {
  /** The auto-pack key shared by its types, or the type's own key when it has none (it packs alone). */
  key: string;
  lines: PackingLine[];
  /** Each type's packing instructions once, in the lines' order. */
  instructions: string[];
}

export type PackingOutcome = { ok: true; groups: PackingGroup[] } | { ok: false; error: string };

export const PACKING_MESSAGES = {
  unknown: (key: string) => `There is no inventory type "${key}"`,
  cycle: (path: readonly string[]) => `Included types must not include each other: ${path.join(" → ")}`,
  tooMany: "A packing list holds at most 1,000,000 of one type",
} as const;

/** The most of one type a list may hold: more is a typing slip, and it keeps sums exact. */
export const MAX_LINE_QUANTITY = 1_000_000;

/** An entry's key and per-unit quantity, whichever way it was written. */
export function includedOf(entry: IncludedEntry): { key: string; quantity: number } {
  return typeof entry === "string" ? { key: entry, quantity: 1 } : entry;
}

/**
 * The first include cycle reachable from the given keys, as a path that ends where it started, or null.
 * Keys of unknown types are not followed (the caller reports them).
 */
export function includedCycle(types: ReadonlyMap<string, Pick<PackingType, "included">>, from: readonly string[]): string[] | null {
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (key: string): string[] | null => {
    const at = onPath.indexOf(key);
    if (at >= 0) return [...onPath.slice(at), key];
    if (done.has(key)) return null;
    const type = types.get(key);
    if (!type) return null;
    onPath.push(key);
    for (const entry of [...type.included].map(includedOf).sort((a, b) => a.key.localeCompare(b.key))) {
      const cycle = visit(entry.key);
      if (cycle) return cycle;
    }
    onPath.pop();
    done.add(key);
    return null;
  };
  for (const key of [...from].sort()) {
    const cycle = visit(key);
    if (cycle) return cycle;
  }
  return null;
}

/** The keys reachable from `from` in an order where every type comes before the types it includes. */
function topological(types: ReadonlyMap<string, PackingType>, from: readonly string[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const entry of types.get(key)!.included) visit(includedOf(entry).key);
    order.push(key);
  };
  for (const key of [...from].sort()) visit(key);
  return order.reverse();
}

/** The first included key (in key order) that names no type, among everything reachable from `from`. */
function unknownIncluded(types: ReadonlyMap<string, PackingType>, from: readonly string[]): string | null {
  const seen = new Set<string>();
  const stack = [...from];
  const unknown: string[] = [];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const type = types.get(key);
    if (!type) unknown.push(key);
    else stack.push(...type.included.map((e) => includedOf(e).key));
  }
  return unknown.sort()[0] ?? null;
}

const byOrdinal = (a: { ordinal: number; key: string }, b: { ordinal: number; key: string }) => a.ordinal - b.ordinal || a.key.localeCompare(b.key);

/** Expands a request into its packing list, or says why it cannot (an unknown type, an include cycle). */
export function expandRequest(types: ReadonlyMap<string, PackingType>, request: readonly RequestedLine[]): PackingOutcome {
  const requested = new Map<string, number>();
  for (const line of request) {
    if (line.quantity <= 0) continue;
    requested.set(line.key, (requested.get(line.key) ?? 0) + line.quantity);
  }
  const keys = [...requested.keys()];
  for (const key of keys.sort()) if (!types.has(key)) return { ok: false, error: PACKING_MESSAGES.unknown(key) };
  const cycle = includedCycle(types, keys);
  if (cycle) return { ok: false, error: PACKING_MESSAGES.cycle(cycle) };
  const missing = unknownIncluded(types, keys);
  if (missing) return { ok: false, error: PACKING_MESSAGES.unknown(missing) };
  // Parents before children: a type's total is known before it is passed on to what it includes.
  const total = new Map(requested);
  for (const key of topological(types, keys)) {
    const quantity = total.get(key) ?? 0;
    if (quantity > MAX_LINE_QUANTITY) return { ok: false, error: PACKING_MESSAGES.tooMany };
    for (const entry of types.get(key)!.included) {
      const { key: child, quantity: perUnit } = includedOf(entry);
      total.set(child, (total.get(child) ?? 0) + quantity * perUnit);
    }
  }
  const groups = new Map<string, { ordinal: number; lines: PackingLine[]; types: PackingType[] }>();
  for (const [key, quantity] of total) {
    if (quantity <= 0) continue;
    if (quantity > MAX_LINE_QUANTITY) return { ok: false, error: PACKING_MESSAGES.tooMany };
    const type = types.get(key)!;
    const groupKey = type.autoPackKey ?? key;
    const group = groups.get(groupKey) ?? { ordinal: type.ordinal, lines: [], types: [] };
    group.ordinal = Math.min(group.ordinal, type.ordinal);
    group.types.push(type);
    const asked = requested.get(key) ?? 0;
    group.lines.push({ key, name: type.name, quantity, requested: asked, included: quantity - asked, isTracked: type.isTracked, isRentable: type.isRentable });
    groups.set(groupKey, group);
  }
  const sorted = [...groups.entries()].map(([key, g]) => ({ key, ...g })).sort(byOrdinal);
  return {
    ok: true,
    groups: sorted.map((g) => {
      const members = [...g.types].sort(byOrdinal);
      return {
        key: g.key,
        lines: members.map((t) => g.lines.find((l) => l.key === t.key)!),
        instructions: members.map((t) => t.packingInstructions?.trim() ?? "").filter((text) => text !== ""),
      };
    }),
  };
}

/** Every line of a packing list, group by group. */
export const packingLines = (groups: readonly PackingGroup[]): PackingLine[] => groups.flatMap((g) => g.lines);
