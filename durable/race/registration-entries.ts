/**
 * Racers from a registration form (issue 24), written by the RaceRoom as its single writer. Each registered
 * person is one racer, known by `imported_from` = registration:<individual id>: a sync creates the racers it
 * has not seen (with the form's course and start group, and the next free bib by the race's bib rules),
 * updates the names and details of those it has, and removes those whose entry was cancelled. Running it
 * twice, or after an eviction, changes nothing more: the link lives in the racers themselves.
 */
import { assignBibs, parseBibList } from "../../core/timing/bibs";
import { isInvalid } from "../../core/time/parse";
import type { RacerEntry } from "../../core/registration/racer-entry";
import type { StoredRacer } from "../../schema/race/engine-input";
import type { RaceSettings } from "../../schema/race/settings";
import type { RacerWrites } from "./racer-writes";
import type { RaceStore } from "./store";

/** A person entered in this race, with the course and start group of their link (decision 0058). */
export interface PlacedEntry extends Omit<RacerEntry, "chip"> {
  /** Undefined when the depots refused the typed chip (faulty or lost): the racer keeps the chip they have (decision 0077). */
  chip: string | null | undefined;
  course: string | null;
  start_group: string | null;
  /** Their link changed since they were entered (another option): an existing racer takes the new course and start group. */
  moved: boolean;
}

export interface EntrySync {
  entries: PlacedEntry[];
  /** Sources (registration:<individual id>) whose racers go: cancelled or removed entries, people moved to another race. */
  removed: string[];
}

/** A racer whose chips the sync changed, so the depots' chips follow (decision 0077). */
export interface ChipMove {
  id: string;
  bib: number | null;
  before: { chip: string | null; chip_list: string[] };
  after: { chip: string | null; chip_list: string[] };
}

export type EntrySyncReply = { ok: true; created: number; updated: number; removed: number; chips: ChipMove[] } | { ok: false; errors: Record<string, string> };

const DETAIL_FIELDS = ["first_name", "last_name", "sex", "dob", "province", "city", "club", "team", "category", "chip", "licence"] as const;

export function syncRegistrationEntries(writes: RacerWrites, store: RaceStore, settings: RaceSettings, sync: EntrySync): EntrySyncReply {
  const racers = store.racers();
  const bySource = new Map<string, StoredRacer>();
  for (const racer of racers) if (racer.data.imported_from) bySource.set(racer.data.imported_from, racer);
  const taken = new Set(racers.flatMap((r) => (r.data.bib === null ? [] : [r.data.bib])));
  const newBibs = new NewBibs(store, settings, taken);
  let created = 0;
  let updated = 0;
  let removed = 0;
  const chips: ChipMove[] = [];
  const moved = (before: StoredRacer["data"] | null, after: StoredRacer) => {
    const was = { chip: before?.chip ?? null, chip_list: before?.chip_list ?? [] };
    if (was.chip !== after.data.chip || was.chip_list.join() !== after.data.chip_list.join())
      chips.push({ id: after.id, bib: after.data.bib, before: was, after: { chip: after.data.chip, chip_list: after.data.chip_list } });
  };
  for (const entry of sync.entries) {
    const existing = bySource.get(entry.source);
    if (existing) {
      // A chip the depots refused is left out (undefined): the racer keeps the chip they have.
      const changes: Record<string, unknown> = Object.fromEntries(
        DETAIL_FIELDS.filter((f) => entry[f] !== undefined && existing.data[f] !== entry[f]).map((f) => [f, entry[f]]),
      );
      // Only the custom fields the mapping fills are written; the organiser's own stay.
      if (Object.entries(entry.custom).some(([key, value]) => (existing.data.custom[key] ?? null) !== value))
        changes.custom = { ...existing.data.custom, ...entry.custom };
      // The organiser may have moved a racer by hand; only a changed link moves them again.
      if (entry.moved && existing.data.course !== entry.course) changes.course = entry.course;
      if (entry.moved && existing.data.setupgroup_id !== entry.start_group) changes.setupgroup_id = entry.start_group;
      if (Object.keys(changes).length === 0) continue;
      const saved = saveKeepingOthers(writes, existing.id, changes);
      if (!saved.ok) return { ok: false, errors: saved.errors };
      if (saved.written) updated++;
      if (saved.written && "chip" in changes) moved(existing.data, saved.value);
      continue;
    }
    const bib = newBibs.next(entry.start_group);
    const { source, course, start_group, moved: _moved, ...details } = entry;
    const saved = saveKeepingOthers(writes, null, { ...details, chip: details.chip ?? null, imported_from: source, bib, course, setupgroup_id: start_group });
    if (!saved.ok) return { ok: false, errors: saved.errors };
    if (bib !== null) taken.add(bib);
    created++;
    if (saved.written) moved(null, saved.value);
  }
  for (const source of sync.removed) {
    const racer = bySource.get(source);
    if (racer && writes.remove(racer.id)) removed++;
  }
  return { ok: true, created, updated, removed, chips };
}

/** A chip typed on the form that another racer holds is left for the organiser, rather than keeping everyone after it out of the race. */
function saveKeepingOthers(
  writes: RacerWrites,
  id: string | null,
  changes: Record<string, unknown>,
): { ok: true; written: true; value: StoredRacer } | { ok: true; written: false } | { ok: false; errors: Record<string, string> } {
  const saved = writes.save(id, changes);
  if (saved.ok) return { ok: true, written: true, value: saved.value };
  if (!saved.errors.chip || !("chip" in changes)) return saved;
  const { chip: _chip, ...rest } = changes;
  if (Object.keys(rest).length === 0) return { ok: true, written: false };
  const again = writes.save(id, rest);
  return again.ok ? { ok: true, written: true, value: again.value } : again;
}

/**
 * Bibs for the racers one sync creates: the lowest free bib from the start group's first bib (else the race's,
 * else 1), skipping missing and reserved bibs; null when none is left. Bibs are only taken during a sync, so each
 * start group's numbering goes on from its last bib given: scanning from the first bib and copying the taken
 * set for every new racer made a first sync of 20,000 entries take 30 s.
 */
class NewBibs {
  private readonly groups = new Map<string | null, { from: number | null; skip: Set<number> }>();

  constructor(
    private readonly store: RaceStore,
    private readonly settings: RaceSettings,
    private readonly taken: ReadonlySet<number>,
  ) {}

  next(startGroupId: string | null): number | null {
    const group = this.groupOf(startGroupId);
    if (group.from === null) return null;
    try {
      const bib = assignBibs(["new"], { firstBib: group.from, skip: group.skip, backwards: false, taken: this.taken }).get("new")!;
      group.from = bib + 1;
      return bib;
    } catch {
      // The bibs ran out: the racer is entered without one, for the organiser to number.
      group.from = null;
      return null;
    }
  }

  private groupOf(startGroupId: string | null) {
    const known = this.groups.get(startGroupId);
    if (known) return known;
    const doc = startGroupId ? this.store.documents("StartGroup").find((g) => g.id === startGroupId) : undefined;
    const skip = new Set<number>();
    for (const list of [this.settings.missing_bibs_csv, this.settings.reserved_bibs, doc?.data.reserved_bibs ?? ""]) {
      const bibs = parseBibList(list);
      if (!isInvalid(bibs)) for (const bib of bibs) skip.add(bib);
    }
    const group = { from: doc?.data.first_bib ?? this.settings.first_bib ?? 1, skip };
    this.groups.set(startGroupId, group);
    return group;
  }
}
