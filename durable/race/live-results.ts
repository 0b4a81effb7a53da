/**
 * A race's current results, held by its RaceRoom: the incremental engine over the stored setup and
 * crossing log, and the rows that changed since the last push. Rebuilt from storage when the object wakes,
 * at the log position last published (live-push.ts), so reads written since still count as changes.
 */
import { defaultRangePattern } from "../../core/timing/biathlon";
import { enduroSegments } from "../../core/timing/enduro";
import { biathlonColumns, enduroColumns, lapColumns, runColumns, type ResultColumn } from "../../core/timing/result-columns";
import { ResultsEngine } from "../../core/timing/engine";
import { freeOrderWarnings } from "../../core/timing/free-order";
import type { Course, Crossing, Racer, RacerResult, ResultGroupSpec, TimedRacer } from "../../core/timing/model";
import { splitLabel } from "../../core/timing/split-label";
import { courseGroupsOf, racerCourseOf } from "../../schema/race/free-order";
import { racerDisplayName } from "../../core/timing/racer-name";
import { teamAndLegOf } from "../../core/timing/relay";
import type { StoredDocument } from "../../schema/race/documents";
import { courseWithSections, raceInputOf, racerFieldsOf, racerOf, type RaceDocuments, type StoredRacer } from "../../schema/race/engine-input";
import { relaySetupOf, runCountOf, type RaceSettings } from "../../schema/race/settings";
import type { FormatSnapshot, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import { fellBack, type RowsAndFell } from "../../schema/wire/window-filter";

export interface RaceState {
  settings: RaceSettings;
  startTimeMs: number;
  endTimeMs: number | null;
  /** The race's day in its time zone (YYYY-MM-DD): age classes take ages on it. */
  raceDay: string;
  docs: RaceDocuments;
  racers: StoredRacer[];
  crossings: Crossing[];
  /** The crossing-log position `crossings` goes up to. */
  position: number;
}

/**
 * What a racer's row shows besides the result, drawn from the racer's document when it is loaded or saved:
 * the room keeps this, not the document (decision 0096).
 */
interface RowFacts {
  handle: number | undefined;
  bib: number | null;
  name: string;
  club: string | null;
  team: string | null;
  city: string | null;
  /** Shown on the racer page. */
  category: string | null;
  /** Where the engine places the racer (a free-order racer's course group). */
  courseId: string | null;
  /** Relays: the team (team_field) and leg (team_order). */
  relay: { team: string | null; leg: number | null } | null;
  /** Multistage: the earlier stages' times and bonuses. */
  stages: { times: (number | null)[]; bonuses: (number | null)[] } | null;
}

/** One racer within a result group, as LiveResults.racerInFormats finds them. */
export interface RacerInGroup {
  formatId: string;
  group: ResultGroupSpec;
  row: ResultRow;
  result: RacerResult;
  /** The racer as the engine has them (start group, adjustments). */
  racer: TimedRacer;
  category: string | null;
  courseId: string | null;
  members: RacerResult[];
  sameCourse: (racerId: string) => boolean;
}

export class LiveResults {
  private engine: ResultsEngine;
  /** The setup the rows and columns are drawn from (racers and crossings live in the engine and `racers`). */
  private state: Omit<RaceState, "crossings" | "racers">;
  private racers = new Map<string, RowFacts>();
  private groupsByFormat = new Map<string, ResultGroupSpec[]>();
  private courseNames = new Map<string, string>();
  /** A free-order race's course groups place racers (free-order.ts); null elsewhere. */
  private courseOf: ((racer: Racer) => string | null) | null = null;
  /** Course point id → its timing point: where a relay racer's handover read is found. */
  private pointTimingPoints = new Map<string, string>();
  private pending = new Set<string>();
  /**
   * Where racers an edit touched stood before it (null: new), until the push compares: a frame names those whose place
   * went back (a status, a penalty, a cleared time, a removal), which their new row cannot tell a page (decision 0087).
   * Crossings only move racers on, so they are not kept.
   */
  private before = new Map<string, ResultRow | null>();
  /** The crossing-log position the engine has taken in. */
  private logPosition: number;

  /**
   * `load(upTo)` reads the race from storage with the log up to `upTo` (the whole log when undefined); it
   * runs now, at `startAt`, and again whenever the setup changes.
   */
  constructor(
    private readonly load: (upTo?: number) => RaceState,
    startAt?: number,
  ) {
    const state = load(startAt);
    this.state = setupOf(state);
    this.logPosition = state.position;
    this.engine = this.build(state);
  }

  get position(): number {
    return this.logPosition;
  }

  /** Racers in the results. */
  get racerCount(): number {
    return this.racers.size;
  }

  /** New crossings from the log up to `position`; their racers' rows go out with the next push. */
  addCrossings(crossings: Crossing[], position?: number): void {
    if (position !== undefined) this.logPosition = Math.max(this.logPosition, position);
    if (crossings.length === 0) return;
    this.note(this.engine.addCrossings(crossings).racerIds);
  }

  racerSaved(saved: StoredRacer): void {
    // A racer saved in place keeps its handle, which writers of other fields do not carry.
    const racer = saved.handle === undefined ? { ...saved, handle: this.racers.get(saved.id)?.handle } : saved;
    this.remember(racer.id);
    this.racers.set(racer.id, this.factsOf(racer));
    if (this.bringsNewFieldGroup(racer)) return this.reload();
    this.note(this.engine.upsertRacer(racerOf(racer, this.courseOf)).racerIds);
    this.pending.add(racer.id);
  }

  racerRemoved(racerId: string): void {
    this.remember(racerId);
    this.racers.delete(racerId);
    this.note(this.engine.removeRacer(racerId).racerIds);
    this.pending.add(racerId);
  }

  timesCleared(racerId: string): void {
    this.remember(racerId);
    this.note(this.engine.clearTimes(racerId).racerIds);
  }

  /** The setup changed (race fields, courses, groups, formats): everything is recomputed and pages get a snapshot. */
  reload(): void {
    const state = this.load();
    this.state = setupOf(state);
    this.logPosition = state.position;
    this.engine = this.build(state);
    this.pending.clear();
    this.before.clear();
  }

  hasPending(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Takes the racers changed since the last push (and `alsoChanged`, racers a stored change names) and
   * returns, per format, the rows to send; a format with nothing to send is left out.
   */
  takeDelta(formatIds: string[], alsoChanged: Iterable<string> = []): Map<string, RowsAndFell> {
    const seen = new Set(this.pending);
    const racerIds = [...new Set([...this.pending, ...alsoChanged])];
    const fallen = new Set(racerIds.filter((id) => this.fell(id, seen.has(id))));
    this.pending.clear();
    const deltas = new Map<string, RowsAndFell>();
    for (const formatId of formatIds) {
      const groups = this.groupsByFormat.get(formatId) ?? [];
      const wanted: ResultRow[] = [];
      for (const racerId of racerIds) {
        const memberOf = this.memberships(racerId, groups);
        const result = this.engine.result(racerId);
        // A racer that was never in this format and still is not needs no row; one deleted from it gets its removal.
        if (memberOf.length === 0 && !result && !this.wasIn(racerId, groups)) continue;
        wanted.push(result ? this.rowOf(result, memberOf) : removedRow(racerId));
      }
      if (wanted.length > 0) deltas.set(formatId, { rows: wanted, fell: wanted.filter((row) => fallen.has(row.racerId)).map((row) => row.racerId) });
    }
    // Kept until every format has asked wasIn where a deleted racer was.
    this.before.clear();
    return deltas;
  }

  /** The whole format as a page renders it, labelled with the version its frames chain from. */
  snapshot(format: StoredDocument<"ResultFormat">, version: string): FormatSnapshot {
    const relay = relaySetupOf(this.state.settings);
    const groups = this.groupsByFormat.get(format.id) ?? [];
    const rows = new Map<string, ResultRow>();
    const wireGroups: ResultGroupWire[] = groups.map((group) => {
      for (const result of this.engine.groupResults(group.id)) {
        const existing = rows.get(result.racerId);
        if (existing) existing.groups.push(group.id);
        else rows.set(result.racerId, this.rowOf(result, [group.id]));
      }
      const settings = this.state.settings;
      const wire: ResultGroupWire = {
        id: group.id,
        name: group.name,
        sameTimeThreshold: group.sameTimeThreshold ?? settings.same_time_threshold,
        columns: this.columnsOf(group),
        ...this.lapOptionsOf(group),
      };
      const timeLabel =
        runCountOf(settings) > 0
          ? MULTI_RUN_TIME_LABELS[settings.multi_run_mode]
          : settings.biathlon_penalty_type === null
            ? undefined
            : TIME_LABELS[settings.biathlon_result_calc];
      return timeLabel ? { ...wire, timeLabel } : wire;
    });
    return {
      formatId: format.id,
      name: format.data.name,
      version,
      displayPrecision: format.data.display_precision,
      displayDiffs: format.data.display_diffs,
      sameTimeDisplay: this.state.settings.same_time_display,
      isAnnouncer: format.data.is_announcer,
      groups: wireGroups,
      rows: [...rows.values()],
      ...(relay ? { relay: { memberCount: relay.memberCount, lapTimeDisplay: relay.lapTimeDisplay } } : {}),
      ...(this.state.settings.prev_stages_count > 0 ? { stage: { number: this.state.settings.prev_stages_count + 1 } } : {}),
    };
  }

  result(racerId: string): RacerResult | undefined {
    return this.engine.result(racerId);
  }

  /** Names a racer's splits as an announcer reads them ("Lap 2", "Finish"), by the course the engine placed them on. */
  splitNamer(): (racerId: string, index: number) => string {
    const courses = new Map<string, Course | null>();
    return (racerId, index) => {
      const id = this.engine.courseOf(racerId);
      if (id !== null && !courses.has(id)) {
        const doc = this.state.docs.courses.find((c) => c.id === id);
        courses.set(id, doc ? courseWithSections(doc, this.state.settings, this.state.docs.points).course : null);
      }
      return splitLabel(id === null ? null : (courses.get(id) ?? null), index);
    };
  }

  /** The race setup the rows are drawn from (settings and documents). */
  get setup(): Omit<RaceState, "crossings" | "racers"> {
    return this.state;
  }

  /**
   * The racer in the first of `formatIds` whose groups hold them, for the racer page (racer-detail.ts): their
   * row, the first such group and a copy of its members in order. One pass over that group, never the format.
   */
  racerInFormats(formatIds: readonly string[], racerId: string): RacerInGroup | null {
    const result = this.engine.result(racerId);
    const racer = this.engine.racer(racerId);
    if (!result || !racer) return null;
    for (const formatId of formatIds) {
      const groups = this.groupsByFormat.get(formatId) ?? [];
      const memberOf = this.memberships(racerId, groups);
      const group = groups.find((g) => g.id === memberOf[0]);
      if (!group) continue;
      const courseId = this.engine.courseOf(racerId);
      return {
        formatId,
        group,
        row: this.rowOf(result, memberOf),
        result,
        racer,
        category: this.racers.get(racerId)?.category ?? null,
        courseId,
        members: this.engine.groupResults(group.id),
        sameCourse: (id) => this.engine.courseOf(id) === courseId,
      };
    }
    return null;
  }

  private note(racerIds: readonly string[]): void {
    for (const id of racerIds) this.pending.add(id);
  }

  /** A racer's row as it stands before an edit, kept from the first edit since the last push. */
  private remember(racerId: string): void {
    if (this.before.has(racerId)) return;
    const result = this.engine.result(racerId);
    this.before.set(racerId, result ? this.rowOf(result, this.engine.groupsOf(racerId)) : null);
  }

  /**
   * Whether a racer's place may have gone back since the last push: compared with where an edit found it, and
   * assumed for a stored change this instance did not see (it was made before the room last woke).
   */
  private fell(racerId: string, seen: boolean): boolean {
    if (!this.before.has(racerId)) return !seen;
    const before = this.before.get(racerId)!;
    // The row now is built only for an edited racer: a tick of crossings builds each row once, for its frame.
    return before !== null && fellBack(before, this.currentRow(racerId));
  }

  /**
   * Groups made from a racer field (a format with group_type "field" and no groups of its own) gain a group
   * when a racer brings a value no one had; only then is a full rebuild needed.
   */
  private bringsNewFieldGroup(racer: StoredRacer): boolean {
    const fields = racerFieldsOf(racer.data);
    return this.state.docs.formats.some((f) => {
      if (f.data.group_type !== "field" || !f.data.group_field || this.state.docs.groups.some((g) => g.data.format === f.id)) return false;
      const value = fields[f.data.group_field];
      if (value === null || value === undefined || value === "") return false;
      return !(this.groupsByFormat.get(f.id) ?? []).some((g) => g.id === `${f.id}:field:${String(value)}`);
    });
  }

  /** Indexes the racers and each format's groups, and builds the engine: one engine input for both. */
  private build(state: RaceState): ResultsEngine {
    const input = raceInputOf(state.settings, state.startTimeMs, state.endTimeMs, state.docs, state.racers, state.raceDay);
    this.courseOf = racerCourseOf(state.settings);
    this.racers = new Map(state.racers.map((r) => [r.id, this.factsOf(r)]));
    if (state.settings.is_free_segment) warnAboutFreeOrderRacers(state.settings, state.racers);
    this.courseNames = new Map(state.docs.courses.map((c) => [c.id, c.data.name]));
    this.pointTimingPoints = new Map(state.docs.courses.flatMap((c) => c.data.points_list.map((p) => [p.id, p.point] as const)));
    this.groupsByFormat = new Map(state.docs.formats.map((f) => [f.id, input.groups.filter((g) => g.id.startsWith(`${f.id}:`))]));
    return new ResultsEngine(input, state.crossings);
  }

  /** Whether a racer gone from the race was in one of these groups: as an edit found it, or, deleted before the room woke, assumed. */
  private wasIn(racerId: string, groups: ResultGroupSpec[]): boolean {
    if (this.racers.has(racerId)) return false;
    const before = this.before.get(racerId);
    if (before === undefined) return true;
    return before !== null && groups.some((g) => before.groups.includes(g.id));
  }

  /** A racer's row in every group it is in (null: not in the race), to compare with where it stood. */
  private currentRow(racerId: string): ResultRow | null {
    const result = this.engine.result(racerId);
    return result ? this.rowOf(result, this.engine.groupsOf(racerId)) : null;
  }

  private memberships(racerId: string, groups: ResultGroupSpec[]): string[] {
    const of = new Set(this.engine.groupsOf(racerId));
    return groups.filter((g) => of.has(g.id)).map((g) => g.id);
  }

  private rowOf(result: RacerResult, groups: string[]): ResultRow {
    const facts = this.racers.get(result.racerId);
    return {
      ...result,
      ...(facts?.handle != null ? { h: facts.handle } : {}),
      key: [...result.key],
      rankKey: result.rankKey ? [...result.rankKey] : null,
      splits: result.splits.map((s) => ({ ...s })),
      bib: facts?.bib ?? null,
      name: facts?.name ?? "",
      club: facts?.club ?? null,
      team: facts?.team ?? null,
      city: facts?.city ?? null,
      course: facts?.courseId ? (this.courseNames.get(facts.courseId) ?? null) : null,
      groups,
      ...(facts?.relay ? { ...facts.relay, handover: this.handoverOf(result) } : {}),
      ...(facts?.stages ? { stageTimes: [...facts.stages.times], stageBonuses: [...facts.stages.bonuses] } : {}),
    };
  }

  /** What a row needs of the racer's document, with the setup as it stands (a setup change reloads). */
  private factsOf(stored: StoredRacer): RowFacts {
    const racer = stored.data;
    const settings = this.state.settings;
    const relay = relaySetupOf(settings);
    return {
      handle: stored.handle,
      bib: racer.bib,
      name: racerDisplayName({ firstName: racer.first_name, lastName: racer.last_name, fullname: racer.fullname }, settings.is_last_name_first),
      club: racer.club,
      team: racer.team,
      city: racer.city,
      category: racer.category,
      // The engine's placing: in a free-order race the course group's.
      courseId: this.courseOf ? racerOf(stored, this.courseOf).courseId : racer.course,
      relay: relay ? teamAndLegOf(racerFieldsOf(racer), { teamField: relay.teamField, teamOrder: relay.teamOrder ?? "" }) : null,
      stages: settings.prev_stages_count > 0 ? { times: racer.stage_times, bonuses: racer.stage_bonuses } : null,
    };
  }

  /** A relay racer's latest read at the transition point (null without one). */
  private handoverOf(result: RacerResult): number | null {
    const transition = relaySetupOf(this.state.settings)?.transitionPointId ?? null;
    if (transition === null) return null;
    return result.splits.findLast((s) => this.pointTimingPoints.get(s.coursePointId) === transition)?.time ?? null;
  }

  /** The group's course: its own, or the race's only one. */
  private courseDocOf(group: ResultGroupSpec): StoredDocument<"Course"> | undefined {
    const courses = this.state.docs.courses;
    return group.courseId ? courses.find((c) => c.id === group.courseId) : courses.length === 1 ? courses[0] : undefined;
  }

  /** Time limit and lap options a page applies to a group's cells (timing.md section 9); none in the other modes. */
  private lapOptionsOf(group: ResultGroupSpec): Partial<ResultGroupWire> {
    const settings = this.state.settings;
    const isLapMode =
      (settings.timing_mode === "lap" || settings.timing_mode === "p2p" || settings.timing_mode === "timelimit") &&
      settings.biathlon_penalty_type === null &&
      runCountOf(settings) === 0;
    if (!isLapMode) return {};
    const doc = this.courseDocOf(group);
    const options: Partial<ResultGroupWire> = {};
    if (settings.rank_display === "splits") options.splitRanks = true;
    if (settings.display_diffs === "only") options.splitGaps = true;
    if (settings.display_diffs === "lap-count" && settings.timing_mode === "timelimit") options.lapsBehind = true;
    if (settings.column_option === "pace" && doc && (doc.data.course_distance_km !== null || doc.data.lap_distance_km !== null))
      options.pace = { courseKm: doc.data.course_distance_km, lapKm: doc.data.lap_distance_km };
    return options;
  }

  /**
   * Split columns for a group whose racers share one course: each non-start point, lap by lap. A
   * triathlon shows one column per section with that section's own time (since the section before).
   */
  private columnsOf(group: ResultGroupSpec): ResultColumn[] {
    const doc = this.courseDocOf(group);
    if (!doc) return [];
    const { course, sections } = courseWithSections(doc, this.state.settings, this.state.docs.points);
    const runs = runCountOf(this.state.settings);
    if (runs > 0) return runColumns(runs);
    if (this.state.settings.timing_mode === "enduro") return enduroColumns(enduroSegments(course), this.state.settings.enduro_column_option);
    if (course.biathlon) return biathlonColumns(course, this.state.settings.biathlon_column_option, doc.data.range ?? defaultRangePattern(course.lapCount));
    if (sections) return sections.map((s, i) => ({ index: s.index, name: s.name, since: i === 0 ? null : sections[i - 1]!.index }));
    const settings = this.state.settings;
    return lapColumns(course, {
      timeLimit: settings.timing_mode === "timelimit",
      splitDisplay: settings.split_display,
      columnOption: settings.column_option,
      splitTiming: settings.split_timing,
    });
  }
}

/** The time column's heading in a multi-run race: what the mode makes of the runs. */
const MULTI_RUN_TIME_LABELS: Record<RaceSettings["multi_run_mode"], string> = {
  best: "Best run",
  all: "Total",
  one: "Run 1",
  sum: "Total",
  mean: "Mean",
  worst: "Worst run",
};

/** The time column's heading when a biathlon ranks on ski or range time; the total needs none. */
const TIME_LABELS: Record<RaceSettings["biathlon_result_calc"], string | undefined> = { total: undefined, ski: "Ski time", range: "Range time" };

/** The console messages of timing.md section 8 for free-order racers the results cannot place (the first 20, then a count). */
function warnAboutFreeOrderRacers(settings: RaceSettings, stored: readonly StoredRacer[]): void {
  const racers = stored.map((s) => {
    const racer = racerOf(s);
    return {
      label: racer.bib === null ? `${racer.firstName} ${racer.lastName}`.trim() || racer.id : `bib ${racer.bib}`,
      racer,
      metastartId: s.data.metastart_id,
    };
  });
  const warnings = freeOrderWarnings(racers, { groups: courseGroupsOf(settings), metaStartIds: settings.meta_startgroups_list.map((m) => m.id) });
  for (const warning of warnings.slice(0, 20)) console.warn(warning);
  if (warnings.length > 20) console.warn(`…and ${warnings.length - 20} more free-order racer warnings`);
}

/** The setup alone: the racers and the crossing log as loaded are not kept (the engine holds them packed; decision 0096). */
function setupOf({ racers: _racers, crossings: _crossings, ...setup }: RaceState): Omit<RaceState, "crossings" | "racers"> {
  return setup;
}

function removedRow(racerId: string): ResultRow {
  return {
    racerId,
    status: "notstarted",
    statusText: "",
    start: null,
    laps: 0,
    splits: [],
    finish: null,
    time: null,
    key: [],
    rankKey: null,
    bib: null,
    name: "",
    club: null,
    team: null,
    city: null,
    course: null,
    groups: [],
  };
}
