/**
 * Seeding on random fields (fast-check): every racer gets exactly one start position, stored random values
 * and manual seeds are never touched, each function orders by the keys decision 0014 gives it (ties by the
 * random value, then bib, then id), CPL seed groups are split as evenly as possible by points, the result
 * does not depend on the order racers are stored in, and reading the stored values back
 * (seedStartOrder, seeding again) gives the same order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TimingError } from "./errors";
import {
  CPL_SEED_THRESHOLDS,
  cplSeedGroupCount,
  normaliseSeedGroupOrder,
  parseSeedGroupOrder,
  SEED_FUNCTION_KEYS,
  seedGroupSizes,
  seedGroupStartOrder,
  SeedingError,
  seedRacers,
  seedStartOrder,
  type SeedFunction,
  type SeedOptions,
  type SeedRacer,
  type SeedResult,
} from "./seeding";
import { chance, fcParams, maybe } from "../testing/fast-check";

const S = 1_000_000;
/** Coarse random values, so ties (broken by bib, then id) are common. */
const fraction = fc.integer({ min: 0, max: 39 }).map((n) => n / 40);

const racerDraw = fc.record({
  bib: maybe(0.8, fc.integer({ min: 1, max: 30 })),
  random: maybe(0.7, fraction),
  seed: maybe(0.4, fc.integer({ min: 1, max: 6 })),
  isManualSeed: chance(0.15),
  // 0 counts as no points; few distinct values, so equal points are common.
  cplDistancePts: maybe(0.75, fc.integer({ min: 0, max: 40 })),
  cplSprintPts: maybe(0.6, fc.integer({ min: 0, max: 40 })),
  licence: fc.constantFrom(null, "", "  ", "CCC-1", "L-2"),
  qualifierRank: maybe(0.7, fc.integer({ min: 1, max: 30 })),
  // Ranking points (lower is better), hundredths, few distinct values so equal points are common.
  rankingPoints: maybe(
    0.7,
    fc.integer({ min: 0, max: 40 }).map((n) => n * 12.25),
  ),
  previousTime: maybe(
    0.75,
    fc.integer({ min: 0, max: 60 }).map((n) => 3600 * S + n * 5 * S),
  ),
});
/** Up to 100 racers (so CPL makes 2, 3 and 4 seed groups), each in one category. */
const racersArb: fc.Arbitrary<SeedRacer[]> = fc
  .array(racerDraw, { maxLength: 100, size: "max" })
  .map((draws) => draws.map((draw, i) => ({ id: `r${i}`, categoryCount: 1, ...draw })));

/** The options, the random source as a drawn list of values it hands out (nothing random hides from shrinking). */
const optionsArb = fc.record({
  rngValues: fc.array(fraction, { minLength: 1, maxLength: 20 }),
  seedGroupOrder: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 4 }),
  prevStagesCount: fc.integer({ min: 1, max: 3 }),
  massStartCutoff: maybe(
    0.5,
    fc.integer({ min: 0, max: 60 }).map((n) => n * 5 * S),
  ),
  startInterval: fc.integer({ min: 0, max: 60 }).map((n) => n * S),
});
type DrawnOptions = Omit<SeedOptions, "rng"> & { rngValues: number[] };

/** A fresh source that hands out the drawn values in turn. */
function sourceOf(values: readonly number[]): () => number {
  let next = 0;
  return () => values[next++ % values.length]!;
}
const seed = (fn: SeedFunction, racers: readonly SeedRacer[], options: DrawnOptions): SeedResult =>
  seedRacers(fn, racers, { ...options, rng: sourceOf(options.rngValues) });

const points = (value: number | null) => value ?? 0;
type Key = readonly (number | string)[];
function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}
/** The order every function falls back on: the random value, then bib (none last), then id. */
const tieBreak = (r: SeedRacer, result: SeedResult): Key => [result.randoms.get(r.id)!, r.bib ?? Infinity, r.id];

/** The order is strictly increasing in `key` (ids are unique, so the tie-break never leaves two equal). */
function expectOrderedBy(result: SeedResult, racers: readonly SeedRacer[], key: (r: SeedRacer) => Key): void {
  const byId = new Map(racers.map((r) => [r.id, r]));
  const keys = result.order.map((id) => key(byId.get(id)!));
  const outOfOrder = result.order.slice(1).flatMap((id, i) => (compareKeys(keys[i]!, keys[i + 1]!) < 0 ? [] : [`${result.order[i]} before ${id}`]));
  expect(outOfOrder).toEqual([]);
}

/** Every seed function, pursuit with previous stages. */
const FUNCTIONS = SEED_FUNCTION_KEYS;

describe("seedRacers on random fields", () => {
  it("gives every racer exactly one start position, keeps stored random values and manual seeds, and fills the rest in input order", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, fc.constantFrom(...FUNCTIONS), (racers, options, fn) => {
        const result = seed(fn, racers, options);
        const ids = racers.map((r) => r.id);
        expect([...result.order].sort()).toEqual([...ids].sort());
        expect([...result.seeds.keys()]).toEqual(ids);
        expect([...result.randoms.keys()]).toEqual(ids);
        const draws = sourceOf(options.rngValues);
        for (const r of racers) {
          expect(result.randoms.get(r.id), `random of ${r.id}`).toBe(r.random ?? draws());
          if (r.isManualSeed) expect(result.seeds.get(r.id), `manual seed of ${r.id}`).toBe(r.seed);
        }
        expect(result.offsets === null).toBe(fn !== "pursuit");
      }),
      fcParams(),
    );
  });

  it("random leaves seeds alone and clear empties the ones not set by hand; both order by the random value, bib, id", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, (racers, options) => {
        const random = seed("random", racers, options);
        const clear = seed("clear", racers, options);
        for (const r of racers) {
          expect(random.seeds.get(r.id)).toBe(r.seed);
          expect(clear.seeds.get(r.id)).toBe(r.isManualSeed ? r.seed : null);
        }
        expectOrderedBy(random, racers, (r) => tieBreak(r, random));
        expect(clear.order).toEqual(random.order);
      }),
      fcParams(),
    );
  });

  it("CPL Individual Start splits racers with points into 2, 3 or 4 even groups by points, then licence and no licence", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, (racers, options) => {
        const result = seed("cpl_individual", racers, options);
        const recalculated = racers.filter((r) => !r.isManualSeed);
        const ranked = recalculated.filter((r) => points(r.cplDistancePts) > 0);
        const count = ranked.length <= CPL_SEED_THRESHOLDS[0] ? 2 : ranked.length <= CPL_SEED_THRESHOLDS[1] ? 3 : 4;
        const sizes = Array.from({ length: count }, (_, g) => ranked.filter((r) => result.seeds.get(r.id) === g + 1).length);
        // Every ranked racer is in one of the groups; sizes differ by at most one, the better groups larger.
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(ranked.length);
        sizes.slice(1).forEach((size, g) => expect(sizes[g]! - size).toBeGreaterThanOrEqual(0));
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        // More points never puts a racer in a later group.
        const behind = ranked.flatMap((a) =>
          ranked
            .filter((b) => points(a.cplDistancePts) > points(b.cplDistancePts) && result.seeds.get(a.id)! > result.seeds.get(b.id)!)
            .map((b) => `${a.id} behind ${b.id}`),
        );
        expect(behind).toEqual([]);
        for (const r of recalculated.filter((x) => points(x.cplDistancePts) <= 0))
          expect(result.seeds.get(r.id)).toBe(r.licence !== null && r.licence.trim() !== "" ? count + 1 : count + 2);
        // Start order: seed groups as the Seed Group Order lists them, racers with no seed last, then random.
        const seeds = new Set([...result.seeds.values()].filter((s) => s !== null));
        const groupOrder = seedGroupStartOrder(seeds, options.seedGroupOrder);
        const place = (r: SeedRacer) => {
          const s = result.seeds.get(r.id) ?? null;
          return s === null ? Infinity : groupOrder.indexOf(s);
        };
        expectOrderedBy(result, racers, (r) => [place(r), ...tieBreak(r, result)]);
      }),
      fcParams(),
    );
  });

  it("the order-only functions order by their own keys, then random, and keep seeds; CPL Mass Start clears those not set by hand", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, (racers, options) => {
        const mass = seed("cpl_mass", racers, options);
        for (const r of racers) expect(mass.seeds.get(r.id)).toBe(r.isManualSeed ? r.seed : null);
        expectOrderedBy(mass, racers, (r) => [-points(r.cplDistancePts), ...tieBreak(r, mass)]);
        const sprint = seed("cpl_sprint_qualifier", racers, options);
        // Racers with sprint points first, by points; the rest (none or 0) at random after them.
        expectOrderedBy(sprint, racers, (r) => [points(r.cplSprintPts) > 0 ? 0 : 1, -points(r.cplSprintPts), ...tieBreak(r, sprint)]);
        const heats = seed("heat_cpl_sprint_qualifier_rank", racers, options);
        expectOrderedBy(heats, racers, (r) => [r.qualifierRank ?? Number.MAX_SAFE_INTEGER, -points(r.cplSprintPts), ...tieBreak(r, heats)]);
        for (const result of [sprint, heats, seed("pursuit", racers, options)]) for (const r of racers) expect(result.seeds.get(r.id)).toBe(r.seed);
      }),
      fcParams(),
    );
  });

  it("by ranking points: a permutation, best-ranked first by points, the unranked after them at random; seeds are kept", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, (racers, options) => {
        const result = seed("ranking_points", racers, options);
        expect([...result.order].sort()).toEqual(racers.map((r) => r.id).sort());
        expectOrderedBy(result, racers, (r) => [r.rankingPoints ?? Infinity, ...tieBreak(r, result)]);
        for (const r of racers) expect(result.seeds.get(r.id)).toBe(r.seed);
      }),
      fcParams(),
    );
  });

  it("pursuit starts each racer its time behind the leader (at most the cutoff), the racers with no time last, an interval apart", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, (racers, options) => {
        const result = seed("pursuit", racers, options);
        expectOrderedBy(result, racers, (r) => [r.previousTime ?? Infinity, ...tieBreak(r, result)]);
        const timed = racers.filter((r) => r.previousTime !== null);
        const leader = Math.min(...timed.map((r) => r.previousTime!));
        const offsets = result.order.map((id) => result.offsets!.get(id)!);
        for (const r of timed) {
          const behind = r.previousTime! - leader;
          const cutoff = options.massStartCutoff ?? null;
          expect(result.offsets!.get(r.id), `offset of ${r.id}`).toBe(cutoff !== null && behind > cutoff ? cutoff : behind);
        }
        const lastTimed = timed.length === 0 ? null : offsets[timed.length - 1]!;
        offsets
          .slice(timed.length)
          .forEach((offset, i) => expect(offset).toBe((lastTimed === null ? 0 : lastTimed + options.startInterval!) + i * options.startInterval!));
        offsets.slice(1).forEach((offset, i) => expect(offset).toBeGreaterThanOrEqual(offsets[i]!));
      }),
      fcParams(),
    );
  });

  it("gives the same result whatever order the racers are stored in, once their random values are", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, fc.array(fc.nat(), { maxLength: 100 }), fc.constantFrom(...FUNCTIONS), (racers, options, keys, fn) => {
        const stored = racers.map((r) => ({ ...r, random: r.random ?? 0.5 }));
        const shuffled = stored
          .map((r, i) => ({ r, key: keys[i] ?? 0 }))
          .sort((a, b) => a.key - b.key)
          .map(({ r }) => r);
        const first = seed(fn, stored, options);
        const again = seed(fn, shuffled, options);
        expect(again.order).toEqual(first.order);
        for (const r of stored) expect(again.seeds.get(r.id)).toBe(first.seeds.get(r.id));
        expect(again.offsets && Object.fromEntries(again.offsets)).toEqual(first.offsets && Object.fromEntries(first.offsets));
      }),
      fcParams(),
    );
  });

  it("reads back: seeding again with what it stored, or seedStartOrder on it, gives the same order and seeds", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, fc.constantFrom(...FUNCTIONS), (racers, options, fn) => {
        const first = seed(fn, racers, options);
        const stored = racers.map((r) => ({ ...r, seed: first.seeds.get(r.id)!, random: first.randoms.get(r.id)! }));
        const again = seed(fn, stored, options);
        expect(again.order).toEqual(first.order);
        expect(again.seeds).toEqual(first.seeds);
        const read = seedStartOrder(fn, stored, options);
        expect(read.offsets).toEqual(first.offsets);
        // Random and clear order by the random value alone, but the start-time sort "seed" puts racers
        // still holding a seed (set by hand, or left by an earlier seeding) by seed group first.
        // Random and clear order by the random value alone, but the start-time sort "seed" puts racers
        // still holding a seed (set by hand, or left by an earlier seeding) by seed group first.
        if ((fn !== "random" && fn !== "clear") || stored.every((r) => r.seed === null)) expect(read.order).toEqual(first.order);
      }),
      fcParams(),
    );
  });

  it("refuses a field with a racer in several categories (clear excepted), and pursuit without previous stages", () => {
    fc.assert(
      fc.property(racersArb, optionsArb, fc.nat(), fc.constantFrom(...FUNCTIONS), (racers, options, which, fn) => {
        fc.pre(racers.length > 0);
        const several = racers.map((r, i) => (i === which % racers.length ? { ...r, categoryCount: 2 } : r));
        if (fn === "clear") expect(seed(fn, several, options).order).toHaveLength(racers.length);
        else expect(() => seed(fn, several, options)).toThrow(TimingError);
        if (fn === "pursuit") expect(() => seed(fn, racers, { ...options, prevStagesCount: 0 })).toThrow(SeedingError);
      }),
      fcParams(),
    );
  });
});

describe("seed group sizes, counts and order", () => {
  it("splits any field into groups that differ by at most one, the earlier taking the extra", () => {
    fc.assert(
      fc.property(fc.nat(500), fc.integer({ min: 1, max: 8 }), (count, groups) => {
        const sizes = seedGroupSizes(count, groups);
        expect(sizes).toHaveLength(groups);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(count);
        sizes.slice(1).forEach((size, i) => expect(sizes[i]! - size).toBeGreaterThanOrEqual(0));
        expect(sizes[0]! - sizes[groups - 1]!).toBeLessThanOrEqual(1);
      }),
      fcParams(),
    );
  });

  it("makes 2 groups up to 20 racers with points, 3 up to 40, 4 beyond, never fewer for more racers", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), (a, b) => {
        expect(cplSeedGroupCount(a)).toBe(a <= 20 ? 2 : a <= 40 ? 3 : 4);
        if (a <= b) expect(cplSeedGroupCount(a)).toBeLessThanOrEqual(cplSeedGroupCount(b));
      }),
      fcParams(),
    );
  });

  it("starts the listed groups that exist in the listed order, then every other group highest first", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 12 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 6 }),
        (existing, listed) => {
          const order = seedGroupStartOrder(existing, listed);
          const present = [...new Set(existing)];
          expect([...order].sort((a, b) => a - b)).toEqual(present.sort((a, b) => a - b));
          const listedPresent = listed.filter((g) => existing.includes(g));
          expect(order.slice(0, listedPresent.length)).toEqual(listedPresent);
          const rest = order.slice(listedPresent.length);
          expect(rest).toEqual([...rest].sort((a, b) => b - a));
        },
      ),
      fcParams(),
    );
  });

  it("reads a typed Seed Group Order as its numbers, each once in first-typed order, and stores it so it reads the same", () => {
    const spaces = fc.constantFrom("", " ", "  ", "\t");
    const entry = fc.record({ group: fc.integer({ min: 1, max: 999_999 }), before: spaces, after: spaces, empty: chance(0.2) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 10 }), (entries) => {
        const text = entries.map((e) => `${e.before}${e.group}${e.after}${e.empty ? ", " : ""}`).join(",");
        const groups = entries.map((e) => e.group);
        expect(parseSeedGroupOrder(text)).toEqual(groups.filter((g, i) => groups.indexOf(g) === i));
        const stored = normaliseSeedGroupOrder(text) as string;
        expect(normaliseSeedGroupOrder(stored)).toBe(stored);
        expect(stored).not.toMatch(/\s/);
      }),
      fcParams(),
    );
  });
});
