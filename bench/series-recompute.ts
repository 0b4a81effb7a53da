// A points series of 20 races with 5,000 racers each, recomputed after one race's result changes (issue 27:
// under 200 ms). End to end: the demo club's bench series (/_dev/demo-series: each race's results in its own
// RaceRoom), one finisher of the first race moved, then the standings page as a visitor gets it (standings are
// computed on read, decision 0048). The recompute alone is the page's Server-Timing: the Worker's time from
// asking for the standings to having them (the changed race read from its room, the other nineteen from memory
// or D1, all ranked), without rendering 200 racers or the local proxy. On its own: the pure standings
// computation over the same field, one race's entries new at each run as after a change.
import { packEntries, raceEntries, unpackEntries, type ResultRowLike } from "../core/series/race-entries";
import { computeStandings, type SeriesRace } from "../core/series/standings";
import { seriesConfigSchema, pointsSystemOf } from "../schema/wire/series-config";
import { demoSites } from "../scripts/demo-data";
import { percentile, send } from "./http";
import { report } from "./report";

const RACES = 20;
const RACERS = 5_000;
const RUNS = 15;
const PURE_RUNS = 21;

export async function runSeriesRecompute(port: number): Promise<void> {
  runPureStandings();
  const setUp = async (body: Record<string, unknown>) => {
    const reply = await send(port, "localhost", "POST", "/_dev/demo-series", JSON.stringify({ races: RACES, racers: RACERS, ...body }), {
      "Content-Type": "application/json",
    });
    if (reply.status !== 200) throw new Error(`series: setup failed: ${reply.status} ${reply.body.slice(0, 300)}`);
    return JSON.parse(reply.body) as { seriesId: string };
  };
  const started = performance.now();
  const { seriesId } = await setUp({});
  console.error(`series: ${RACES} races of ${RACERS} racers set up in ${Math.round(performance.now() - started)} ms`);
  const host = demoSites[0].hostname;
  const recomputes: number[] = [];
  const page = async () => {
    const reply = await send(port, host, "GET", `/series/${seriesId}`);
    if (reply.status !== 200 || !reply.body.includes("Bench cup")) throw new Error(`series: GET /series/${seriesId}: ${reply.status}`);
    const timing = /standings;dur=([\d.]+)/.exec(String(reply.headers["server-timing"] ?? ""));
    if (!timing) throw new Error("series: the standings page sent no Server-Timing for its standings");
    recomputes.push(Number(timing[1]));
    return reply.ms;
  };
  // The first read after the races were timed: every race read and scored.
  report(`series recompute cold first (${RACES} races × ${RACERS} racers)`, await page(), "ms");
  const unchanged: number[] = [];
  for (let i = 0; i < RUNS; i++) unchanged.push(await page());
  const changed: number[] = [];
  recomputes.length = 0;
  const stamp = Date.now() % 100_000;
  for (let i = 0; i < RUNS; i++) {
    await setUp({ change: stamp * 10 + i + 1 });
    changed.push(await page());
  }
  changed.sort((a, b) => a - b);
  recomputes.sort((a, b) => a - b);
  unchanged.sort((a, b) => a - b);
  const load = { races: RACES, racers: RACERS, runs: RUNS };
  report("series recompute after one race changed p50 (Worker, Server-Timing)", percentile(recomputes, 50), "ms", load);
  report("series recompute after one race changed p95 (Worker, Server-Timing)", percentile(recomputes, 95), "ms", load);
  report("series recompute after one race changed p50 (page, end to end)", percentile(changed, 50), "ms", load);
  report("series recompute after one race changed p95 (page, end to end)", percentile(changed, 95), "ms", load);
  report("series standings page unchanged p50 (stored standings)", percentile(unchanged, 50), "ms", load);
}

/** The same field as the bench series, as the standings code receives it, scored on its own (no I/O). */
export function runPureStandings(): void {
  const config = seriesConfigSchema.parse({ best_of: RACES - 4 });
  const groups = [
    { id: "f", name: "Women" },
    { id: "m", name: "Men" },
  ];
  const races: SeriesRace[] = Array.from({ length: RACES }, (_, n) => {
    const rows: ResultRowLike[] = Array.from({ length: RACERS }, (_, i) => ({
      status: "finished",
      rankKey: [1800 + ((i * 7919 + n * 104_729) % 3600) + (i % 97) / 100],
      time: (1800 + ((i * 7919 + n * 104_729) % 3600)) * 1_000_000,
      name: `Racer${i} Bench${i}`,
      club: `Club ${i % 40}`,
      groups: [i % 2 === 0 ? "f" : "m"],
    }));
    // Packed and unpacked, as the Worker receives a race's entries (from its room or D1).
    return { id: `race-${n}`, name: `Race ${n + 1}`, order: n, scale: 1, entries: unpackEntries(packEntries(raceEntries(groups, rows, [])))! };
  });
  const system = pointsSystemOf(config, null);
  const times: number[] = [];
  for (let i = 0; i < PURE_RUNS; i++) {
    // As after a change: the first race's entries are new objects, so nothing of its earlier scoring is reused.
    races[0] = { ...races[0]!, entries: races[0]!.entries.map((entry) => ({ ...entry })) };
    const started = performance.now();
    computeStandings(system, races, [], []);
    times.push(performance.now() - started);
  }
  // The first run compiles the code and is reported on its own; the percentiles are of the runs after it.
  const cold = times.shift()!;
  times.sort((a, b) => a - b);
  const load = { races: RACES, racers: RACERS, runs: PURE_RUNS - 1 };
  report("series standings computation cold first (pure)", cold, "ms", load);
  report("series standings computation after one race changed p50 (pure)", percentile(times, 50), "ms", load);
  report("series standings computation after one race changed p95 (pure)", percentile(times, 95), "ms", load);
}
