// The results engine on its own (core/timing): incremental update per crossing at 1,000, 10,000 and 50,000 racers
// (reads in time order, and shuffled so racers jump across their groups), a full recompute at 10,000, and the
// memory a RaceRoom holds for 10,000 and 50,000 racers (same V8 as workerd).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { SeededRandom } from "../core/random/seeded";
import { ResultsEngine } from "../core/timing/engine";
import { computeFull } from "../core/timing/full";
import type { Crossing, RaceInput } from "../core/timing/model";
import { LiveResults, type RaceState } from "../durable/race/live-results";
import { raceInputOf, type RaceDocuments, type StoredRacer } from "../schema/race/engine-input";
import { racerSchema } from "../schema/race/racer";
import { readRaceSettings, type RaceSettings } from "../schema/race/settings";
import { percentile } from "./http";
import { report } from "./report";

const GUN_MS = 1_800_000_000_000;
const LAPS = 3;
const SECOND = 1_000_000;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The demo race scaled up: a three-lap course with a hill split, two result formats. */
function race(racerCount: number): { input: RaceInput; racers: StoredRacer[]; crossings: Crossing[]; settings: RaceSettings; docs: RaceDocuments } {
  const settings = readRaceSettings({ timing_mode: "lap", lap_count: LAPS });
  const points = [
    {
      id: "hill",
      point: "tp-hill",
      mode: "split" as const,
      name: "Hill",
      min_split: 10 * SECOND,
      avg_split_time: null,
      seg_distance: null,
      distance_split: null,
      start_time: null,
      end_time: null,
    },
    {
      id: "lap",
      point: "tp-lap",
      mode: "lap" as const,
      name: "Lap",
      min_split: 10 * SECOND,
      avg_split_time: null,
      seg_distance: null,
      distance_split: null,
      start_time: null,
      end_time: null,
    },
  ];
  const course = { id: "c1", kind: "Course" as const, ordinal: 1, data: { name: "10 km", points_list: points } as never };
  const formats = [
    { id: "f1", kind: "ResultFormat" as const, ordinal: 1, data: { name: "Results", group_type: "all", filters_list: [], same_time_threshold: null } as never },
    {
      id: "f2",
      kind: "ResultFormat" as const,
      ordinal: 2,
      data: { name: "By sex", group_type: "field", group_field: "sex", filters_list: [], same_time_threshold: null } as never,
    },
  ];
  const racers: StoredRacer[] = Array.from({ length: racerCount }, (_, i) => ({
    // Ids as the room's are: UUIDs, not short strings V8 might share.
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`,
    data: racerSchema.parse({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      bib: i + 1,
      chip: `E200${i}`,
      sex: i % 2 ? "M" : "F",
      club: `Club ${i % 40}`,
      course: "c1",
    }),
  }));
  const docs: RaceDocuments = { courses: [course], startGroups: [], formats, groups: [] };
  const input = raceInputOf(settings, GUN_MS, null, docs, racers);
  // Every racer's laps, with each pass read twice (the second read inside min split), in time order.
  const crossings: Crossing[] = [];
  let seq = 1;
  racers.forEach((r, i) => {
    const lap = (600 + ((i * 7919) % 240)) * SECOND;
    for (let l = 0; l < LAPS; l++) {
      for (const [tp, f] of [
        ["tp-hill", 0.45],
        ["tp-lap", 1],
      ] as const) {
        const t = GUN_MS * 1000 + Math.round((l + f) * lap);
        crossings.push({ seq: seq++, racerId: r.id, timingPointId: tp, time: t }, { seq: seq++, racerId: r.id, timingPointId: tp, time: t + 300_000 });
      }
    }
  });
  crossings.sort((a, b) => a.time - b.time || a.seq - b.seq);
  return { input, racers, crossings, settings, docs };
}

/**
 * Half the race has happened; the rest arrives one crossing at a time. In time order a racer mostly stays
 * where it was (its new key still sorts between the same neighbours); shuffled, as when devices upload late,
 * each read moves its racer far within its groups, which is what a per-group O(n) move would show.
 */
function incremental(racerCount: number, order: "time" | "shuffled"): void {
  const { input, crossings } = race(racerCount);
  const half = Math.floor(crossings.length / 2);
  const engine = new ResultsEngine(input, crossings.slice(0, half));
  const later = crossings.slice(half);
  const rest = (order === "shuffled" ? new SeededRandom(racerCount).shuffle(later) : later).slice(0, 5000);
  for (const c of rest.slice(0, 500)) engine.addCrossings([c]); // warm the JIT
  const times: number[] = [];
  for (const c of rest.slice(500)) {
    const started = performance.now();
    engine.addCrossings([c]);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  const name = order === "shuffled" ? `engine_incremental_shuffled_${racerCount}_racers` : `engine_incremental_${racerCount}_racers`;
  report(`${name}_mean`, mean, "µs", { crossings: times.length, groups: input.groups.length, target_us: 50 });
  report(`${name}_p95`, percentile(times, 95), "µs", { crossings: times.length, target_us: 50 });
}

function fullRecompute(racerCount: number): void {
  const { input, crossings } = race(racerCount);
  const engineTimes: number[] = [];
  const fullTimes: number[] = [];
  for (let run = 0; run < 6; run++) {
    let started = performance.now();
    new ResultsEngine(input, crossings);
    engineTimes.push(performance.now() - started);
    started = performance.now();
    computeFull(input, crossings);
    fullTimes.push(performance.now() - started);
  }
  // The first build of this size (the JIT already knows the code from the runs above); then warm runs.
  report(`engine_build_${racerCount}_racers_first`, engineTimes[0]!, "ms", { crossings: crossings.length });
  report(`engine_build_${racerCount}_racers_warm_median`, engineTimes.slice(1).sort((a, b) => a - b)[2]!, "ms", { crossings: crossings.length, runs: 5 });
  report(`full_recompute_${racerCount}_racers_warm_median`, fullTimes.slice(1).sort((a, b) => a - b)[2]!, "ms", {
    crossings: crossings.length,
    runs: 5,
    target_ms: 100,
  });
}

/** A string with the same text but its own storage, as each row SQLite hands the room carries its own ids. */
function asFromStorage(text: string): string {
  return Buffer.from(text).toString();
}

/** The race as the room loads it from storage (room-storage.ts): the log in seq order, each row with its own id strings. */
export function storedRaceState(racerCount: number): RaceState {
  const { settings, docs, racers, crossings } = race(racerCount);
  const stored = crossings
    .map((c) => ({ ...c, racerId: asFromStorage(c.racerId), timingPointId: asFromStorage(c.timingPointId) }))
    .sort((a, b) => a.seq - b.seq);
  return { settings, startTimeMs: GUN_MS, endTimeMs: null, raceDay: "2027-01-15", docs, racers, crossings: stored, position: stored.length };
}

/** What a race room's live results hold once loaded (LiveResults, as the room builds it on waking). */
export function roomHeap(racerCount: number): void {
  gc();
  const before = process.memoryUsage().heapUsed;
  let crossingCount = 0;
  // Loaded as the room loads: nothing but what LiveResults keeps survives the load.
  const live = new LiveResults(() => {
    const state = storedRaceState(racerCount);
    crossingCount = state.crossings.length;
    return state;
  });
  gc();
  const after = process.memoryUsage().heapUsed;
  report(`raceroom_heap_${racerCount}_racers`, (after - before) / 1024 / 1024, "MiB", {
    crossings: crossingCount,
    held: "a race room's live results: setup, racers, crossings and results",
    // Cloudflare's memory per isolate, which a race's room must stay under with its code and sockets (decision 0095).
    isolate_limit_mib: 128,
    racers_held: live.racerCount,
  });
}

export function runTimingEngine(): void {
  for (const order of ["time", "shuffled"] as const) {
    for (const racerCount of [1_000, 10_000, 50_000]) incremental(racerCount, order);
  }
  fullRecompute(10_000);
  roomHeap(10_000);
  roomHeap(50_000);
}
