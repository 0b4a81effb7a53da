// Seeding, start times and bibs on their own (core/timing): CPL Individual Start seeding of 2,000 racers,
// start times for 2,000 racers in 4 groups, and bibs for 2,000 racers around a missing-bib list.
import { assignBibs, parseBibList } from "../core/timing/bibs";
import { seededRng, seedRacers, type SeedRacer } from "../core/timing/seeding";
import { planStartTimes, type PlanGroup, type PlanRace } from "../core/timing/start-plan";
import { percentile } from "./http";
import { report } from "./report";

const RACERS = 2_000;
const RUNS = 50;
const SECOND = 1_000_000;

/** A field of racers like a big loppet's: two thirds with distance points, some with only a licence. */
function racers(): SeedRacer[] {
  return Array.from({ length: RACERS }, (_, i) => ({
    id: `r${i}`,
    bib: i + 1,
    random: null,
    seed: null,
    isManualSeed: i % 250 === 0,
    cplDistancePts: i % 3 === 0 ? null : (i * 7919) % 900,
    cplSprintPts: null,
    licence: i % 5 === 0 ? `CCC-${i}` : null,
    qualifierRank: null,
    categoryCount: 1,
    previousTime: null,
  }));
}

/** Runs `work` RUNS times after a few warm-up runs; reports the mean and p95 in milliseconds. */
function measure(name: string, work: () => unknown, extra: Record<string, unknown>): void {
  for (let i = 0; i < 5; i++) work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  report(`${name}_mean`, times.reduce((s, t) => s + t, 0) / times.length, "ms", { runs: RUNS, ...extra });
  report(`${name}_p95`, percentile(times, 95), "ms", { runs: RUNS, ...extra });
}

export function runSeeding(): void {
  const field = racers();
  measure("seed_cpl_individual_2000_racers", () => seedRacers("cpl_individual", field, { rng: seededRng(7) }), { racers: RACERS });

  const race: PlanRace = {
    startTime: 1_800_000_000 * SECOND,
    endTime: null,
    zeroTime: 1_799_990_000 * SECOND,
    startMode: "individual",
    startInterval: 30 * SECOND,
    startSize: 1,
    isStartSizeEnabled: false,
    startGap: 60 * SECOND,
  };
  const quarter = RACERS / 4;
  measure(
    "start_times_2000_racers_4_groups",
    () => {
      const groups: PlanGroup[] = [0, 1, 2, 3].map((g) => ({
        id: `g${g}`,
        ordinal: g + 1,
        startMode: null,
        scheduledStartTime: null,
        assignedStartTime: null,
        startInterval: null,
        startSize: null,
        startGap: null,
        racerIds: seedRacers("cpl_individual", field.slice(g * quarter, (g + 1) * quarter), { rng: seededRng(g) }).order,
      }));
      return planStartTimes(race, groups);
    },
    { racers: RACERS, groups: 4, includes: "seeding each group" },
  );

  const order = field.map((r) => r.id);
  const missing = "13, 40-45, 100-199, 666, 1000-1099, 1313";
  measure(
    "bibs_2000_racers_missing_list",
    () => assignBibs(order, { firstBib: 1, skip: new Set(parseBibList(missing) as number[]), backwards: false, taken: new Set([7, 8, 9]) }),
    { racers: RACERS, missing },
  );
}
