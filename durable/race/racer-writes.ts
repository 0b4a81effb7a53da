/**
 * Writing a race's racers as the RaceRoom's single writer: checked field by field and against the rest of
 * the race (bibs and chips held once, courses and start groups that exist), written in one transaction
 * with their reads brought along, and marked for the next live push (live-feed.ts).
 */
import { fieldErrorsOf, type FieldErrors } from "../../core/entity/field-errors";
import { bumpMtimes, initialMtimes } from "../../core/entity/field-mtimes";
import { TIMING_ERRORS } from "../../core/timing/errors";
import type { StoredRacer } from "../../schema/race/engine-input";
import { chipsOf, racerSchema, type RacerDoc } from "../../schema/race/racer";
import type { RaceSettings } from "../../schema/race/settings";
import type { LiveFeed } from "./live-feed";
import type { RaceStore } from "./store";
import { clearMisses } from "./timing-input";

export type SaveResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };
/** `ids`: the new racers' ids in the rows' order (a depot chip handed out at pickup is issued to them, decision 0076). */
export type ImportReply = { ok: true; created: number; ids: string[] } | { ok: false; rows: { row: number; errors: FieldErrors }[] };

/** Above this many racers in one write, spectators get fresh snapshots rather than a row each. */
const SNAPSHOT_ABOVE = 50;

interface RacerReferences {
  courses: Set<string>;
  startGroups: Set<string>;
  metaStarts: Set<string>;
}

export interface RacerWritesHost {
  store: RaceStore;
  feed: LiveFeed;
  transaction<T>(write: () => T): T;
  settings(): RaceSettings;
}

export class RacerWrites {
  constructor(private readonly host: RacerWritesHost) {}

  /**
   * Creates (id null) or changes a racer; a bib or chip another racer holds is refused. A new racer takes `newId`
   * when given (a form's one-time id): the same form again finds them and writes nothing.
   */
  save(id: string | null, changes: Record<string, unknown>, newId?: string): SaveResult<StoredRacer> {
    const again = !id && newId ? this.host.store.racer(newId) : null;
    if (again) return { ok: true, value: again };
    const existing = id ? this.host.store.racer(id) : null;
    if (id && !existing) return { ok: false, errors: { id: "Not found" } };
    const checked = this.check(existing?.id ?? null, changes, existing, this.references());
    if (!checked.ok) return checked;
    const [saved] = this.write([{ id: existing?.id ?? newId ?? null, data: checked.value, changed: existing ? Object.keys(changes) : null }]);
    return { ok: true, value: saved! };
  }

  /**
   * Adds many racers at once (a CSV import): rows with errors are reported by position and none of the
   * batch is written unless every row is valid.
   */
  importRows(rows: Record<string, unknown>[]): ImportReply {
    const references = this.references();
    const checked = rows.map((changes) => this.check(null, changes, null, references));
    // Rows may not share a bib or a chip with each other either (the store checks only racers already saved).
    const bibs = new Map<number, number>();
    const chips = new Map<string, number>();
    const problems: { row: number; errors: FieldErrors }[] = [];
    const valid: RacerDoc[] = [];
    checked.forEach((c, i) => {
      if (!c.ok) return problems.push({ row: i + 1, errors: c.errors });
      valid.push(c.value);
      const bib = c.value.bib;
      if (bib !== null && bibs.has(bib)) problems.push({ row: i + 1, errors: { bib: `Bib ${bib} is also on row ${bibs.get(bib)}` } });
      else if (bib !== null) bibs.set(bib, i + 1);
      const shared = chipsOf(c.value).find((chip) => chips.has(chip));
      if (shared) problems.push({ row: i + 1, errors: { chip: `Chip ${shared} is also on row ${chips.get(shared)}` } });
      for (const chip of chipsOf(c.value)) if (!chips.has(chip)) chips.set(chip, i + 1);
      return undefined;
    });
    if (problems.length > 0) return { ok: false, rows: problems };
    const saved = this.write(valid.map((data) => ({ id: null, data, changed: null })));
    return { ok: true, created: rows.length, ids: saved.map((r) => r.id) };
  }

  remove(id: string): boolean {
    const { store, feed } = this.host;
    const removed = this.host.transaction(() => {
      const gone = store.deleteRacer(id);
      if (gone) feed.markRacers([id]);
      return gone;
    });
    if (!removed) return false;
    feed.builtResults()?.racerRemoved(id);
    feed.racersChanged();
    return true;
  }

  /** "Clear all times" for a racer: its reads are set aside (kept in the log), its range data removed and its results reset. */
  clearTimes(racerId: string): number {
    const { store, feed } = this.host;
    const { cleared, racer } = this.host.transaction(() => {
      feed.markRacers([racerId]);
      return { cleared: store.clearRacerTimes(racerId), racer: clearMisses(store, racerId) };
    });
    const live = feed.builtResults();
    if (racer) live?.racerSaved(racer);
    live?.timesCleared(racerId);
    feed.racersChanged();
    return cleared;
  }

  /** "Clear all times" for the whole race (a rehearsal or a restarted demo): every read is set aside, none deleted. */
  clearAllTimes(): number {
    const { store } = this.host;
    const cleared = this.host.transaction(() => {
      for (const racer of store.racers()) clearMisses(store, racer.id);
      return store.clearAllTimes();
    });
    this.host.feed.setupChanged();
    return cleared;
  }

  /**
   * Writes checked racers in one transaction and brings their reads along: unmatched ones of a new bib or
   * chip, released ones of an old. `changed` names the fields a change set (null for a new racer).
   */
  write(items: { id: string | null; data: RacerDoc; changed: string[] | null }[]): StoredRacer[] {
    const { store, feed } = this.host;
    const now = Date.now();
    const saved = this.host.transaction(() =>
      items.map((item): StoredRacer => {
        const racerId = item.id ?? crypto.randomUUID();
        const mtimes = item.changed
          ? bumpMtimes(store.racerMtimes(racerId), item.changed, now)
          : initialMtimes(item.data as unknown as Record<string, unknown>, now);
        const handle = store.putRacer(racerId, item.data, mtimes);
        store.releaseStale(racerId, item.data.bib, chipsOf(item.data));
        store.assignUnmatched(racerId, item.data.bib, chipsOf(item.data));
        feed.markRacers([racerId]);
        return { id: racerId, data: item.data, handle };
      }),
    );
    if (saved.length === 0) return saved;
    if (saved.length > SNAPSHOT_ABOVE) {
      feed.setupChanged();
      return saved;
    }
    const live = feed.builtResults();
    if (live) {
      for (const racer of saved) {
        live.racerSaved(racer);
        live.timesCleared(racer.id);
        live.addCrossings(
          store
            .crossingsOfRacer(racer.id)
            .filter((c) => c.state === "assigned")
            .map((c) => ({ seq: c.seq, racerId: racer.id, timingPointId: c.timing_point_id!, time: c.time })),
        );
      }
    }
    feed.racersChanged();
    return saved;
  }

  /**
   * The course, start group and meta start group ids a racer may name, read once per save or import; a
   * free-order racer's course is one of its course groups.
   */
  private references(): RacerReferences {
    const settings = this.host.settings();
    const store = this.host.store;
    return {
      // A free-order racer rides a course group; its segment courses are the segments' own.
      courses: new Set(settings.is_free_segment ? settings.meta_courses_list.map((g) => g.id) : store.documents("Course").map((c) => c.id)),
      startGroups: new Set(store.documents("StartGroup").map((g) => g.id)),
      metaStarts: new Set(settings.meta_startgroups_list.map((m) => m.id)),
    };
  }

  /** A racer's fields after a change, checked: its schema, bib and chips held by no other racer, and what it names existing. */
  private check(id: string | null, changes: Record<string, unknown>, existing: StoredRacer | null, references: RacerReferences): SaveResult<RacerDoc> {
    const parsed = racerSchema.safeParse({ ...(existing?.data ?? {}), ...changes });
    if (!parsed.success) return { ok: false, errors: fieldErrorsOf(parsed.error.issues, { fullPath: true }) };
    const data = parsed.data;
    const self = id ?? "";
    const store = this.host.store;
    if (store.bibTakenByOther(self, data.bib)) return { ok: false, errors: { bib: `Bib ${data.bib} is already taken` } };
    const taken = store.chipsTakenByOthers(self, chipsOf(data));
    if (taken.length > 0) return { ok: false, errors: { chip: `Chip ${taken.join(", ")} is already taken` } };
    if (data.course && !references.courses.has(data.course)) return { ok: false, errors: { course: "No such course" } };
    if (data.setupgroup_id && !references.startGroups.has(data.setupgroup_id)) return { ok: false, errors: { setupgroup_id: "StartGroup not found" } };
    if (data.metastart_id && !references.metaStarts.has(data.metastart_id)) return { ok: false, errors: { metastart_id: TIMING_ERRORS.startGroupNotFound } };
    return { ok: true, value: data };
  }
}
