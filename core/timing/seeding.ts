/**
 * Seeding (timing.md section 4, "Seeding: CPL Individual Start" and the seeding functions): pure functions
 * over plain racers that give each racer its seed and random value and the group its start order. The
 * caller stores the random values, so seeding again gives the same order.
 */
import type { Invalid } from "../time/parse";
import { TimingError } from "./errors";
import type { Micros } from "./model";
import { mulberry32 } from "../random/seeded";
import { RACE_DEFAULTS } from "./validation";
import { seedByPoints } from "../rankings/fis-points";

export const SEED_FUNCTIONS = [
  { key: "random", label: "Random" },
  { key: "cpl_individual", label: "CPL Individual Start" },
  { key: "cpl_mass", label: "CPL Mass Start" },
  { key: "cpl_sprint_qualifier", label: "CPL Sprint Qualifier" },
  { key: "heat_cpl_sprint_qualifier_rank", label: "Heats by CPL sprint points and qualifier rank" },
  { key: "pursuit", label: "Pursuit (previous stages' time)" },
  { key: "ranking_points", label: "By ranking points (scheme)" },
  { key: "clear", label: "Clear seeding" },
] as const;
export type SeedFunction = (typeof SEED_FUNCTIONS)[number]["key"];
export const SEED_FUNCTION_KEYS: readonly SeedFunction[] = SEED_FUNCTIONS.map((f) => f.key);
export const DEFAULT_SEED_FUNCTION: SeedFunction = RACE_DEFAULTS.seedFunction;

export function isSeedFunction(key: unknown): key is SeedFunction {
  return typeof key === "string" && (SEED_FUNCTION_KEYS as readonly string[]).includes(key);
}

/** CPL Individual Start: up to this many ranked racers make 2 seed groups, up to the next 3, more 4 (section 9). */
export const CPL_SEED_THRESHOLDS = [20, 40] as const;

export const SEED_GROUP_ORDER_PLACEHOLDER = "default: 6,5,4,3,2,1";
export const SEED_GROUP_ORDER_INVALID = "Enter seed group numbers separated by commas";
/** Pursuit needs the times of earlier stages; the spec offers it only when prev_stages_count is above 0. */
export const PURSUIT_NEEDS_PREVIOUS_STAGES = "Pursuit seeding needs earlier stages: set Previous stages to 1 or more";

/** A seeding rule the setup breaks (not a bug): the message is for the organiser. */
export class SeedingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedingError";
  }
}

/** What seeding reads of a racer (the storage document mapped by the caller). */
export interface SeedRacer {
  id: string;
  bib: number | null;
  /** The racer's stored random value in [0, 1); null until the first seeding fills it. */
  random: number | null;
  seed: number | null;
  /** is_manual_seed: the seed was set by hand and is never recalculated. */
  isManualSeed: boolean;
  cplDistancePts: number | null;
  cplSprintPts: number | null;
  /** ccc_licence, else licence; null or "" is none. */
  licence: string | null;
  /** Rank in the sprint qualifier (1 is fastest); null is not ranked. */
  qualifierRank: number | null;
  /** Categories the racer is in; more than 1 cannot be seeded. */
  categoryCount: number;
  /** Pursuit: the total of the previous stages' times; null when a stage is missing. */
  previousTime: Micros | null;
  /** By ranking points: the racer's points on the race's ranking scheme (lower is better unless rankingHigherFirst); null is unranked. */
  rankingPoints?: number | null;
}

export interface SeedOptions {
  /** Fills missing random values: a deterministic source in tests, Math.random in the RaceRoom. */
  rng: () => number;
  /** The group's Seed Group Order (parseSeedGroupOrder); empty is the default, highest group first. */
  seedGroupOrder?: readonly number[];
  /** Pursuit: prev_stages_count of the race. */
  prevStagesCount?: number;
  /** Pursuit: racers more than this behind the leader all start at it (is_mass_start_cutoff); null is off. */
  massStartCutoff?: Micros | null;
  /** Pursuit: the gap between racers with no previous time, who start last. */
  startInterval?: Micros;
  /** By ranking points: the most points rank first (a points-table scheme, decision 0068); else the fewest. */
  rankingHigherFirst?: boolean;
}

export interface SeedResult {
  /** Racer ids in start order. */
  order: string[];
  /** Every racer's seed after seeding (unchanged, new, or null). */
  seeds: Map<string, number | null>;
  /** Every racer's random value after seeding (missing ones filled). */
  randoms: Map<string, number>;
  /** Pursuit only: each racer's start after the group's first start. */
  offsets: Map<string, Micros> | null;
}

// ---- The Seed Group Order field (custom_seed_order) ----

/** "6, 5,,4" -> [6, 5, 4]: whole numbers from 1, spaces and empty entries dropped, repeats kept once. */
export function parseSeedGroupOrder(text: string): number[] | Invalid {
  const groups: number[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.replace(/\s+/g, "");
    if (entry === "") continue;
    if (!/^\d{1,6}$/.test(entry) || Number(entry) < 1) return { error: SEED_GROUP_ORDER_INVALID };
    const group = Number(entry);
    if (!groups.includes(group)) groups.push(group);
  }
  return groups;
}

/** The field's value as stored: "6,5,4" (no spaces), or why it cannot be read. */
export function normaliseSeedGroupOrder(text: string): string | Invalid {
  const groups = parseSeedGroupOrder(text);
  return Array.isArray(groups) ? groups.join(",") : groups;
}

/**
 * The order seed groups start in: the listed groups that exist, in the listed order, then any other
 * existing group highest first (with no list, that is every group highest first, "6,5,4,3,2,1", so the
 * best start last).
 */
export function seedGroupStartOrder(existing: Iterable<number>, listed: readonly number[] = []): number[] {
  const present = new Set(existing);
  const first = listed.filter((g) => present.has(g));
  const rest = [...present].filter((g) => !first.includes(g)).sort((a, b) => b - a);
  return [...first, ...rest];
}

// ---- Which seed function applies ----

/**
 * The seed function of a start group: its meta start group's when that overrides seeding, else its own,
 * else the race's, else random. An unknown key (from an older system) counts as not set.
 */
export function seedFunctionFor(
  startGroup: { seed_function: string | null },
  metaStartGroup: { seed_function?: string | null; is_override_seeding?: boolean | null } | null,
  race: { seed_function?: string | null },
): SeedFunction {
  if (metaStartGroup?.is_override_seeding && isSeedFunction(metaStartGroup.seed_function)) return metaStartGroup.seed_function;
  if (isSeedFunction(startGroup.seed_function)) return startGroup.seed_function;
  return isSeedFunction(race.seed_function) ? race.seed_function : DEFAULT_SEED_FUNCTION;
}

/**
 * The seeding fields of a meta start group (race setting meta_startgroups_list, kept as loose entries),
 * found by id; null when the group has none or the list does not hold it.
 */
export function metaStartGroupFor(
  metagroupId: string | null,
  metaStartGroups: readonly unknown[],
): { seed_function: string | null; is_override_seeding: boolean } | null {
  if (!metagroupId) return null;
  const entry = metaStartGroups.find(
    (m): m is Record<string, unknown> => typeof m === "object" && m !== null && !Array.isArray(m) && (m as { id?: unknown }).id === metagroupId,
  );
  if (!entry) return null;
  return { seed_function: typeof entry.seed_function === "string" ? entry.seed_function : null, is_override_seeding: entry.is_override_seeding === true };
}

// ---- Seeding ----

/** Number of CPL seed groups for this many racers with distance points: 2, 3 or 4. */
export function cplSeedGroupCount(rankedRacers: number): number {
  if (rankedRacers <= CPL_SEED_THRESHOLDS[0]) return 2;
  return rankedRacers <= CPL_SEED_THRESHOLDS[1] ? 3 : 4;
}

/** Sizes of `groups` seed groups for `count` racers, as even as possible; earlier groups take the extra. */
export function seedGroupSizes(count: number, groups: number): number[] {
  const base = Math.floor(count / groups);
  const extra = count % groups;
  return Array.from({ length: groups }, (_, i) => base + (i < extra ? 1 : 0));
}

const points = (value: number | null) => value ?? 0;
const hasLicence = (r: SeedRacer) => r.licence !== null && r.licence.trim() !== "";

/** Racers in more than one category: they cannot be seeded (timing.md section 5). */
export function racersInSeveralCategories(racers: readonly SeedRacer[]): SeedRacer[] {
  return racers.filter((r) => r.categoryCount > 1);
}

/**
 * Seeds racers with a seed function. Throws TimingError("multipleCategories") when a racer is in several
 * categories, and SeedingError for pursuit without previous stages. The input is not changed.
 */
export function seedRacers(fn: SeedFunction, racers: readonly SeedRacer[], options: SeedOptions): SeedResult {
  if (fn !== "clear" && racersInSeveralCategories(racers).length > 0) throw new TimingError("multipleCategories");
  if (fn === "pursuit" && !((options.prevStagesCount ?? 0) > 0)) throw new SeedingError(PURSUIT_NEEDS_PREVIOUS_STAGES);
  const randoms = new Map<string, number>();
  for (const r of racers) randoms.set(r.id, r.random ?? options.rng());
  const seeds = new Map<string, number | null>(racers.map((r) => [r.id, r.seed]));
  const byRandom = compareByRandom(randoms);
  const sorted = (list: readonly SeedRacer[], compare: (a: SeedRacer, b: SeedRacer) => number) => [...list].sort((a, b) => compare(a, b) || byRandom(a, b));
  const ids = (list: readonly SeedRacer[]) => list.map((r) => r.id);
  const recalculated = racers.filter((r) => !r.isManualSeed);

  switch (fn) {
    case "random":
      return { order: ids(sorted(racers, () => 0)), seeds, randoms, offsets: null };
    case "clear":
      for (const r of recalculated) seeds.set(r.id, null);
      return { order: ids(sorted(racers, () => 0)), seeds, randoms, offsets: null };
    case "cpl_individual": {
      const ranked = sorted(
        recalculated.filter((r) => points(r.cplDistancePts) > 0),
        (a, b) => points(b.cplDistancePts) - points(a.cplDistancePts),
      );
      const groupCount = cplSeedGroupCount(ranked.length);
      let at = 0;
      seedGroupSizes(ranked.length, groupCount).forEach((size, i) => {
        for (const r of ranked.slice(at, at + size)) seeds.set(r.id, i + 1);
        at += size;
      });
      for (const r of recalculated) if (points(r.cplDistancePts) <= 0) seeds.set(r.id, hasLicence(r) ? groupCount + 1 : groupCount + 2);
      return { order: bySeedGroups(racers, seeds, options.seedGroupOrder, byRandom), seeds, randoms, offsets: null };
    }
    case "cpl_mass": {
      for (const r of recalculated) seeds.set(r.id, null);
      return { order: ids(sorted(racers, (a, b) => points(b.cplDistancePts) - points(a.cplDistancePts))), seeds, randoms, offsets: null };
    }
    case "cpl_sprint_qualifier": {
      const withPoints = (r: SeedRacer) => points(r.cplSprintPts) > 0;
      return {
        order: ids(sorted(racers, (a, b) => Number(withPoints(b)) - Number(withPoints(a)) || points(b.cplSprintPts) - points(a.cplSprintPts))),
        seeds,
        randoms,
        offsets: null,
      };
    }
    case "heat_cpl_sprint_qualifier_rank": {
      const rank = (r: SeedRacer) => r.qualifierRank ?? Number.MAX_SAFE_INTEGER;
      return { order: ids(sorted(racers, (a, b) => rank(a) - rank(b) || points(b.cplSprintPts) - points(a.cplSprintPts))), seeds, randoms, offsets: null };
    }
    case "pursuit":
      return { ...pursuit(racers, byRandom, options), seeds, randoms };
    case "ranking_points":
      // Best-ranked first; the unranked after them in their stored random order (decision 0054).
      return {
        order: ids(
          seedByPoints(
            sorted(racers, () => 0),
            (r) => r.rankingPoints ?? null,
            options.rankingHigherFirst === true,
          ),
        ),
        seeds,
        randoms,
        offsets: null,
      };
  }
}

/** Ties by the random value, then bib, then id, so an order never depends on storage order. */
function compareByRandom(randoms: ReadonlyMap<string, number>) {
  return (a: SeedRacer, b: SeedRacer) =>
    randoms.get(a.id)! - randoms.get(b.id)! || (a.bib ?? Infinity) - (b.bib ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The start order seeding gave, read from the racers as stored (nothing is drawn or changed): what the
 * start-time sort "seed" uses. Random, clear and CPL Individual Start: seed groups in the Seed Group Order,
 * then the random value. The other functions: their own order (points, qualifier rank, previous time), with
 * pursuit's start offsets. A racer with no random value yet goes after those with one.
 */
export function seedStartOrder(
  fn: SeedFunction,
  racers: readonly SeedRacer[],
  options: Omit<SeedOptions, "rng">,
): { order: string[]; offsets: Map<string, Micros> | null } {
  if (fn === "random" || fn === "clear" || fn === "cpl_individual") {
    if (racersInSeveralCategories(racers).length > 0) throw new TimingError("multipleCategories");
    const randoms = new Map(racers.map((r) => [r.id, r.random ?? 1]));
    const seeds = new Map(racers.map((r) => [r.id, r.seed]));
    return { order: bySeedGroups(racers, seeds, options.seedGroupOrder, compareByRandom(randoms)), offsets: null };
  }
  const { order, offsets } = seedRacers(fn, racers, { ...options, rng: () => 1 });
  return { order, offsets };
}

/** Seed groups in the start order of the Seed Group Order, random within a group; racers with no seed last. */
function bySeedGroups(
  racers: readonly SeedRacer[],
  seeds: ReadonlyMap<string, number | null>,
  listed: readonly number[] | undefined,
  byRandom: (a: SeedRacer, b: SeedRacer) => number,
): string[] {
  const existing = new Set<number>();
  for (const seed of seeds.values()) if (seed !== null) existing.add(seed);
  const position = new Map(seedGroupStartOrder(existing, listed).map((g, i) => [g, i]));
  const place = (r: SeedRacer) => {
    const seed = seeds.get(r.id);
    return seed === null || seed === undefined ? Infinity : position.get(seed)!;
  };
  return [...racers].sort((a, b) => place(a) - place(b) || byRandom(a, b)).map((r) => r.id);
}

/**
 * Pursuit: by the previous stages' total time, each racer starting its time behind the leader. With the
 * mass start cutoff on, everyone more than the cutoff behind starts together at the cutoff (the FIS wave
 * rule). Racers with no previous time start last, an interval apart, after the last timed start.
 */
function pursuit(
  racers: readonly SeedRacer[],
  byRandom: (a: SeedRacer, b: SeedRacer) => number,
  options: SeedOptions,
): { order: string[]; offsets: Map<string, Micros> } {
  const timed = racers.filter((r) => r.previousTime !== null).sort((a, b) => a.previousTime! - b.previousTime! || byRandom(a, b));
  const untimed = racers.filter((r) => r.previousTime === null).sort(byRandom);
  const offsets = new Map<string, Micros>();
  const leader = timed[0]?.previousTime ?? 0;
  const cutoff = options.massStartCutoff ?? null;
  let last = 0;
  for (const r of timed) {
    const behind = r.previousTime! - leader;
    const offset = cutoff !== null && behind > cutoff ? cutoff : behind;
    offsets.set(r.id, offset);
    last = Math.max(last, offset);
  }
  const interval = options.startInterval ?? 0;
  const firstUntimed = timed.length === 0 ? 0 : last + interval;
  untimed.forEach((r, i) => offsets.set(r.id, firstUntimed + interval * i));
  return { order: [...timed, ...untimed].map((r) => r.id), offsets };
}

/**
 * A deterministic random source for tests and benchmarks: the same seed gives the same values.
 * The RaceRoom uses Math.random and stores what it drew.
 */
export const seededRng: (seed: number) => () => number = mulberry32;
