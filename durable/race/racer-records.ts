import { lapCloses } from "../../core/timing/biathlon-result";
import { carriedStages, type StageResult } from "../../core/timing/multistage";
import { timedEntityOf, timedEntityToStorage } from "../../core/timing/timed-entity";
import { courseOf, racerOf } from "../../schema/race/engine-input";
import { engineCourseDocs, racerCourseOf } from "../../schema/race/free-order";
import type { RacerDoc } from "../../schema/race/racer";
import { readRaceSettings } from "../../schema/race/settings";
import type { raceSetup } from "../../schema/race/tables";
import type { LiveResults } from "./live-results";
import type { SaveResult } from "./racer-writes";
import type { RaceStore } from "./store";

/** What the racer records below read from the RaceRoom: its store, setup row, live results and racer writes. */
export interface RacerRecordsDeps {
  store: RaceStore;
  settingsRow: () => typeof raceSetup.$inferSelect | null;
  results: () => LiveResults;
  writeRacers: (items: { id: string | null; data: RacerDoc; changed: string[] | null }[]) => unknown;
}

/** This race as a stage before another: each racer's bib, person, result time and the stages before it. */
export function stageResultsOf(store: RaceStore, live: LiveResults): StageResult[] {
  return store.racers().map((r) => {
    const result = live.result(r.id);
    return {
      bib: r.data.bib,
      person: r.data.person,
      time: result?.status === "finished" ? result.time : null,
      stageTimes: r.data.stage_times,
      stageBonuses: r.data.stage_bonuses,
    };
  });
}

/**
 * Brings in the earlier stages (stage_time_1..N, stage_bonus_1..N) from the stage before's results, N being
 * this race's prev_stages_count; a racer with no match there gets none. One transaction (the racer writes).
 */
export function importStageTimes(deps: RacerRecordsDeps, previous: StageResult[]): SaveResult<{ matched: number; unmatched: number }> {
  const row = deps.settingsRow();
  const stagesBefore = row ? readRaceSettings(row.settings).prev_stages_count : 0;
  if (stagesBefore < 1) return { ok: false, errors: { prev_race: "Choose the stage before this one first" } };
  let matched = 0;
  const items = deps.store.racers().map((racer) => {
    const carried = carriedStages(racer.data, previous, stagesBefore);
    if (carried) matched += 1;
    const { stageTimes, stageBonuses } = carried ?? { stageTimes: Array<null>(stagesBefore).fill(null), stageBonuses: Array<null>(stagesBefore).fill(null) };
    return { id: racer.id, data: { ...racer.data, stage_times: stageTimes, stage_bonuses: stageBonuses }, changed: ["stage_times", "stage_bonuses"] };
  });
  deps.writeRacers(items);
  return { ok: true, value: { matched, unmatched: items.length - matched } };
}

/** A racer's TimedEntity (run 1, round 1) in the spec's storage names, as the data API shows it. */
export function timedEntityOfRacer(deps: RacerRecordsDeps, racerId: string): Record<string, unknown> | null {
  const stored = deps.store.racer(racerId);
  const row = deps.settingsRow();
  if (!stored || !row) return null;
  const settings = readRaceSettings(row.settings);
  // A free-order racer's course is their course group, ranked as the course engineCourseDocs makes of it.
  const racer = racerOf(stored, racerCourseOf(settings));
  const courseDoc = engineCourseDocs(settings, deps.store.documents("Course")).find((c) => c.id === racer.courseId);
  const course = courseDoc ? courseOf(courseDoc, settings, deps.store.documents("TimingPoint")) : null;
  const crossings = deps.store
    .crossingsOfRacer(racerId)
    .filter((c) => c.state === "assigned" && c.timing_point_id !== null)
    .map((c) => ({ timingPointId: c.timing_point_id!, time: c.time, deviceId: c.device_id === "manual" ? null : c.device_id }));
  const result = deps.results().result(racerId);
  const lapCloseTimes = course ? lapCloses(course, result?.splits ?? []).filter((t) => t !== null) : [];
  const entity = timedEntityOf(
    {
      ...racer,
      racerId: racer.id,
      assignedStartTime: stored.data.assigned_start_time,
      scheduledStartTime: stored.data.scheduled_start_time,
      isOncourse: result?.status === "oncourse",
      lapCloses: lapCloseTimes,
      variants: Object.fromEntries((racer.runStatuses ?? []).flatMap((s, i) => (s ? [[i + 1, s]] : []))),
    },
    course,
    crossings,
  );
  return timedEntityToStorage(entity);
}
