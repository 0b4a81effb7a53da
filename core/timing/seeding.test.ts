import { describe, expect, it } from "vitest";
import { TimingError } from "./errors";
import {
  cplSeedGroupCount,
  DEFAULT_SEED_FUNCTION,
  metaStartGroupFor,
  normaliseSeedGroupOrder,
  parseSeedGroupOrder,
  PURSUIT_NEEDS_PREVIOUS_STAGES,
  SEED_FUNCTIONS,
  SEED_GROUP_ORDER_INVALID,
  SEED_GROUP_ORDER_PLACEHOLDER,
  seedFunctionFor,
  seedGroupSizes,
  seedGroupStartOrder,
  seededRng,
  SeedingError,
  seedRacers,
  seedStartOrder,
  type SeedRacer,
} from "./seeding";

const S = 1_000_000;

function racer(id: string, fields: Partial<SeedRacer> = {}): SeedRacer {
  return {
    id,
    bib: null,
    random: null,
    seed: null,
    isManualSeed: false,
    cplDistancePts: null,
    cplSprintPts: null,
    licence: null,
    qualifierRank: null,
    categoryCount: 1,
    previousTime: null,
    ...fields,
  };
}

/** `count` racers with distance points count, count-1, …, 1 (p1 is the best), each with its own random value. */
function withPoints(count: number): SeedRacer[] {
  return Array.from({ length: count }, (_, i) => racer(`p${i + 1}`, { cplDistancePts: count - i, random: ((i * 7919) % 1000) / 1000 }));
}

const rng = () => seededRng(42);
const seedsOf = (result: { seeds: Map<string, number | null> }, ids: string[]) => ids.map((id) => result.seeds.get(id));
const groupSizes = (result: { seeds: Map<string, number | null> }) => {
  const sizes = new Map<number, number>();
  for (const seed of result.seeds.values()) if (seed !== null) sizes.set(seed, (sizes.get(seed) ?? 0) + 1);
  return Object.fromEntries(sizes);
};

describe("the Seed Group Order field", () => {
  it("has the spec's placeholder and message", () => {
    expect(SEED_GROUP_ORDER_PLACEHOLDER).toBe("default: 6,5,4,3,2,1");
    expect(SEED_GROUP_ORDER_INVALID).toBe("Enter seed group numbers separated by commas");
  });

  it("reads comma-separated group numbers, dropping spaces, empty entries and repeats", () => {
    expect(parseSeedGroupOrder("6, 5 ,4")).toEqual([6, 5, 4]);
    expect(parseSeedGroupOrder(" 1,,2, ")).toEqual([1, 2]);
    expect(parseSeedGroupOrder("3,3,1")).toEqual([3, 1]);
    expect(parseSeedGroupOrder("")).toEqual([]);
    expect(normaliseSeedGroupOrder(" 6 , 5,,4 ")).toBe("6,5,4");
    expect(normaliseSeedGroupOrder("1 2")).toBe("12");
  });

  it("refuses groups that are not whole numbers from 1", () => {
    for (const text of ["a", "6,five", "1.5", "-1", "0", "1;2"])
      expect(parseSeedGroupOrder(text), text).toEqual({ error: "Enter seed group numbers separated by commas" });
    expect(normaliseSeedGroupOrder("x")).toEqual({ error: SEED_GROUP_ORDER_INVALID });
  });

  it("starts listed groups first, in the listed order, then the others highest first", () => {
    expect(seedGroupStartOrder([1, 2, 3, 4])).toEqual([4, 3, 2, 1]);
    expect(seedGroupStartOrder([1, 2, 3, 4], [6, 5, 4, 3, 2, 1])).toEqual([4, 3, 2, 1]);
    expect(seedGroupStartOrder([1, 2, 3, 4], [1, 2])).toEqual([1, 2, 4, 3]);
  });
});

describe("seedFunctionFor", () => {
  const race = { seed_function: "cpl_mass" };
  it("takes the meta start group's when it overrides seeding, else the group's, else the race's, else random", () => {
    expect(seedFunctionFor({ seed_function: "pursuit" }, { seed_function: "cpl_individual", is_override_seeding: true }, race)).toBe("cpl_individual");
    expect(seedFunctionFor({ seed_function: "pursuit" }, { seed_function: "cpl_individual", is_override_seeding: false }, race)).toBe("pursuit");
    expect(seedFunctionFor({ seed_function: null }, null, race)).toBe("cpl_mass");
    expect(seedFunctionFor({ seed_function: null }, null, {})).toBe("random");
    expect(seedFunctionFor({ seed_function: "no_such_function" }, null, { seed_function: "unknown" })).toBe(DEFAULT_SEED_FUNCTION);
  });

  it("finds a group's meta start group in the race's list by id", () => {
    const list = [{ id: "m1", seed_function: "pursuit", is_override_seeding: true }, "junk", { id: "m2" }];
    expect(metaStartGroupFor("m1", list)).toEqual({ seed_function: "pursuit", is_override_seeding: true });
    expect(metaStartGroupFor("m2", list)).toEqual({ seed_function: null, is_override_seeding: false });
    expect(metaStartGroupFor("m3", list)).toBeNull();
    expect(metaStartGroupFor(null, list)).toBeNull();
    expect(seedFunctionFor({ seed_function: "random" }, metaStartGroupFor("m1", list), {})).toBe("pursuit");
  });

  it("lists every function with a label", () => {
    expect(SEED_FUNCTIONS.map((f) => f.key)).toEqual([
      "random",
      "cpl_individual",
      "cpl_mass",
      "cpl_sprint_qualifier",
      "heat_cpl_sprint_qualifier_rank",
      "pursuit",
      "ranking_points",
      "clear",
    ]);
    for (const f of SEED_FUNCTIONS) expect(f.label.length).toBeGreaterThan(0);
  });
});

describe("random seeding (the default)", () => {
  it("fills missing random values, orders by them, and leaves seeds alone", () => {
    const racers = [racer("a", { random: 0.5, seed: 3 }), racer("b"), racer("c", { random: 0.1 })];
    const result = seedRacers("random", racers, { rng: rng() });
    expect(result.randoms.get("a")).toBe(0.5);
    expect(result.randoms.get("c")).toBe(0.1);
    expect(result.randoms.get("b")).toBeGreaterThanOrEqual(0);
    expect(result.seeds.get("a")).toBe(3);
    const order = [...result.randoms].sort((x, y) => x[1] - y[1]).map(([id]) => id);
    expect(result.order).toEqual(order);
  });

  it("is stable: seeding again with the stored values gives the same order whatever the source", () => {
    const racers = Array.from({ length: 30 }, (_, i) => racer(`r${i}`, { bib: i + 1 }));
    const first = seedRacers("random", racers, { rng: rng() });
    const stored = racers.map((r) => ({ ...r, random: first.randoms.get(r.id)! }));
    expect(seedRacers("random", stored, { rng: () => 0.999 }).order).toEqual(first.order);
    expect(seedRacers("random", racers, { rng: rng() }).order).toEqual(first.order);
  });

  it("breaks ties by bib, then id", () => {
    const racers = [racer("z", { random: 0.5, bib: 2 }), racer("y", { random: 0.5, bib: 1 }), racer("b", { random: 0.5 }), racer("a", { random: 0.5 })];
    expect(seedRacers("random", racers, { rng: rng() }).order).toEqual(["y", "z", "a", "b"]);
  });
});

describe("CPL Individual Start", () => {
  it("makes 2 seed groups up to 20 racers with points, 3 up to 40, else 4", () => {
    expect([1, 20, 21, 40, 41, 400].map(cplSeedGroupCount)).toEqual([2, 2, 3, 3, 4, 4]);
  });

  it("splits as evenly as possible, earlier groups taking the extra", () => {
    expect(seedGroupSizes(20, 2)).toEqual([10, 10]);
    expect(seedGroupSizes(21, 3)).toEqual([7, 7, 7]);
    expect(seedGroupSizes(40, 3)).toEqual([14, 13, 13]);
    expect(seedGroupSizes(41, 4)).toEqual([11, 10, 10, 10]);
  });

  it.each([
    [20, { 1: 10, 2: 10 }],
    [21, { 1: 7, 2: 7, 3: 7 }],
    [40, { 1: 14, 2: 13, 3: 13 }],
    [41, { 1: 11, 2: 10, 3: 10, 4: 10 }],
  ])("%i racers with points: seed groups %o, best points in group 1", (count, sizes) => {
    const result = seedRacers("cpl_individual", withPoints(count), { rng: rng() });
    expect(groupSizes(result)).toEqual(sizes);
    expect(result.seeds.get("p1")).toBe(1);
    expect(result.seeds.get(`p${count}`)).toBe(Object.keys(sizes).length);
  });

  it("puts a licence without points in group count + 1 and neither in group count + 2", () => {
    const ranked = withPoints(21); // 3 groups
    const others = [racer("lic", { licence: "CCC-123" }), racer("zero", { cplDistancePts: 0, licence: "X" }), racer("none"), racer("blank", { licence: "  " })];
    const result = seedRacers("cpl_individual", [...ranked, ...others], { rng: rng() });
    expect(seedsOf(result, ["lic", "zero", "none", "blank"])).toEqual([4, 4, 5, 5]);
    const twoGroups = seedRacers("cpl_individual", [...withPoints(5), ...others], { rng: rng() });
    expect(seedsOf(twoGroups, ["lic", "none"])).toEqual([3, 4]);
  });

  it("breaks equal points by the random value", () => {
    const racers = [
      racer("a", { cplDistancePts: 50, random: 0.9 }),
      racer("b", { cplDistancePts: 50, random: 0.1 }),
      racer("c", { cplDistancePts: 10, random: 0.5 }),
      racer("d", { cplDistancePts: 5, random: 0.2 }),
    ];
    const result = seedRacers("cpl_individual", racers, { rng: rng() });
    // 4 ranked racers, 2 groups of 2: b beats a on the random value.
    expect(seedsOf(result, ["b", "a", "c", "d"])).toEqual([1, 1, 2, 2]);
  });

  it("keeps a manual seed and leaves that racer out of the split", () => {
    const racers = [...withPoints(20), racer("manual", { cplDistancePts: 999, seed: 7, isManualSeed: true }), racer("manual-none", { isManualSeed: true })];
    const result = seedRacers("cpl_individual", racers, { rng: rng() });
    expect(result.seeds.get("manual")).toBe(7);
    expect(result.seeds.get("manual-none")).toBeNull();
    expect(groupSizes(result)).toEqual({ 1: 10, 2: 10, 7: 1 });
  });

  it("starts seed groups highest first by default (the best last), random within a group", () => {
    const racers = [...withPoints(4), racer("lic", { licence: "L", random: 0.3 }), racer("none", { random: 0.4 })];
    const result = seedRacers("cpl_individual", racers, { rng: rng() });
    const seedOrder = result.order.map((id) => result.seeds.get(id));
    expect(seedOrder).toEqual([4, 3, 2, 2, 1, 1]);
    const group1 = result.order.slice(4);
    expect(group1).toEqual(["p1", "p2"].sort((a, b) => result.randoms.get(a)! - result.randoms.get(b)!));
  });

  it("follows a custom Seed Group Order, then the unlisted groups highest first", () => {
    const racers = [...withPoints(4), racer("lic", { licence: "L" }), racer("none")];
    const result = seedRacers("cpl_individual", racers, { rng: rng(), seedGroupOrder: [1, 2] });
    expect(result.order.map((id) => result.seeds.get(id))).toEqual([1, 1, 2, 2, 4, 3]);
  });
});

describe("CPL Mass Start, CPL Sprint Qualifier and heats", () => {
  it("CPL Mass Start clears seeds and orders by distance points, then random", () => {
    const racers = [
      racer("a", { cplDistancePts: 10, seed: 2, random: 0.5 }),
      racer("b", { cplDistancePts: 30, seed: 1 }),
      racer("c", { random: 0.2 }),
      racer("d", { cplDistancePts: 10, random: 0.1 }),
      racer("m", { seed: 4, isManualSeed: true, random: 0.9 }),
    ];
    const result = seedRacers("cpl_mass", racers, { rng: rng() });
    expect(result.order).toEqual(["b", "d", "a", "c", "m"]);
    expect(seedsOf(result, ["a", "b", "c", "d", "m"])).toEqual([null, null, null, null, 4]);
  });

  it("CPL Sprint Qualifier orders racers with sprint points by them, the rest at random after", () => {
    const racers = [
      racer("none1", { random: 0.9 }),
      racer("low", { cplSprintPts: 5 }),
      racer("none2", { random: 0.1 }),
      racer("high", { cplSprintPts: 80 }),
      racer("zero", { cplSprintPts: 0, random: 0.5 }),
    ];
    expect(seedRacers("cpl_sprint_qualifier", racers, { rng: rng() }).order).toEqual(["high", "low", "none2", "zero", "none1"]);
  });

  it("heats: qualifier rank, a missing rank last (largest safe integer), then sprint points, then random", () => {
    const racers = [
      racer("unranked-pts", { cplSprintPts: 90 }),
      racer("q2", { qualifierRank: 2 }),
      racer("q1-low", { qualifierRank: 1, cplSprintPts: 10 }),
      racer("q1-high", { qualifierRank: 1, cplSprintPts: 20 }),
      racer("unranked", { random: 0.1 }),
      racer("huge", { qualifierRank: Number.MAX_SAFE_INTEGER - 1 }),
    ];
    expect(seedRacers("heat_cpl_sprint_qualifier_rank", racers, { rng: rng() }).order).toEqual(["q1-high", "q1-low", "q2", "huge", "unranked-pts", "unranked"]);
  });
});

describe("pursuit", () => {
  const racers = [
    racer("third", { previousTime: 3600 * S + 200 * S }),
    racer("leader", { previousTime: 3600 * S }),
    racer("second", { previousTime: 3600 * S + 45.5 * S }),
    racer("dnf", { random: 0.2 }),
    racer("dns", { random: 0.1 }),
  ];

  it("needs previous stages", () => {
    expect(() => seedRacers("pursuit", racers, { rng: rng(), prevStagesCount: 0 })).toThrow(SeedingError);
    expect(() => seedRacers("pursuit", racers, { rng: rng() })).toThrow(PURSUIT_NEEDS_PREVIOUS_STAGES);
  });

  it("starts each racer its time behind the leader; racers with no time last, an interval apart", () => {
    const result = seedRacers("pursuit", racers, { rng: rng(), prevStagesCount: 1, startInterval: 30 * S });
    expect(result.order).toEqual(["leader", "second", "third", "dns", "dnf"]);
    expect(Object.fromEntries(result.offsets!)).toEqual({ leader: 0, second: 45.5 * S, third: 200 * S, dns: 230 * S, dnf: 260 * S });
  });

  it("with the mass start cutoff, everyone more than the cutoff behind starts together at it", () => {
    const result = seedRacers("pursuit", racers, { rng: rng(), prevStagesCount: 2, startInterval: 30 * S, massStartCutoff: 180 * S });
    expect(Object.fromEntries(result.offsets!)).toEqual({ leader: 0, second: 45.5 * S, third: 180 * S, dns: 210 * S, dnf: 240 * S });
  });
});

describe("clear seeding and racers in several categories", () => {
  it("clear seeding sets every seed that is not manual to null", () => {
    const result = seedRacers("clear", [racer("a", { seed: 1 }), racer("m", { seed: 2, isManualSeed: true })], { rng: rng() });
    expect(seedsOf(result, ["a", "m"])).toEqual([null, 2]);
  });

  it("a racer in several categories cannot be seeded", () => {
    const racers = [racer("a"), racer("both", { categoryCount: 2 })];
    for (const fn of ["random", "cpl_individual", "cpl_mass"] as const) {
      expect(() => seedRacers(fn, racers, { rng: rng() })).toThrow(TimingError);
      expect(() => seedRacers(fn, racers, { rng: rng() })).toThrow("Multiple categories, cannot seed!");
    }
    expect(() => seedStartOrder("cpl_individual", racers, {})).toThrow("Multiple categories, cannot seed!");
  });
});

describe("seedStartOrder (the start-time sort 'seed')", () => {
  it("reads stored seeds and random values: seed groups in order, then random", () => {
    const racers = [
      racer("a", { seed: 1, random: 0.5 }),
      racer("b", { seed: 2, random: 0.9 }),
      racer("c", { seed: 1, random: 0.1 }),
      racer("d", { random: 0.2 }),
    ];
    expect(seedStartOrder("cpl_individual", racers, {}).order).toEqual(["b", "c", "a", "d"]);
    expect(seedStartOrder("random", racers, { seedGroupOrder: [1] }).order).toEqual(["c", "a", "b", "d"]);
  });

  it("gives the order-only functions' own order, and pursuit's offsets", () => {
    const racers = [racer("a", { cplDistancePts: 1, random: 0.1 }), racer("b", { cplDistancePts: 9, random: 0.9 })];
    expect(seedStartOrder("cpl_mass", racers, {}).order).toEqual(["b", "a"]);
    const pursuit = seedStartOrder("pursuit", [racer("x", { previousTime: 10 * S }), racer("y", { previousTime: 4 * S })], { prevStagesCount: 1 });
    expect(pursuit.order).toEqual(["y", "x"]);
    expect(pursuit.offsets?.get("x")).toBe(6 * S);
  });
});

describe("speed", () => {
  it("seeds 2,000 racers by CPL Individual Start in a few milliseconds", () => {
    const racers = Array.from({ length: 2000 }, (_, i) =>
      racer(`r${i}`, { bib: i + 1, cplDistancePts: i % 3 === 0 ? 0 : (i * 37) % 500, licence: i % 5 === 0 ? "L" : null }),
    );
    seedRacers("cpl_individual", racers, { rng: rng() });
    const started = performance.now();
    const result = seedRacers("cpl_individual", racers, { rng: rng() });
    expect(performance.now() - started).toBeLessThan(50);
    expect(result.order).toHaveLength(2000);
    expect(new Set(result.seeds.values())).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });
});

describe("seeding by ranking points (decision 0054)", () => {
  it("puts the best-ranked first and the unranked after them in their random order", () => {
    const racers = [
      racer("a", { rankingPoints: 45.5, random: 0.1 }),
      racer("b", { rankingPoints: null, random: 0.9 }),
      racer("c", { rankingPoints: 12.25, random: 0.5 }),
      racer("d", { rankingPoints: null, random: 0.2 }),
      racer("e", { rankingPoints: 45.5, random: 0.05 }),
    ];
    // Equal points (a and e) go by the random value, as every seed function's ties do.
    expect(seedRacers("ranking_points", racers, { rng: rng() }).order).toEqual(["c", "e", "a", "d", "b"]);
  });

  it("puts the most points first for a points-table scheme (decision 0068)", () => {
    const racers = [
      racer("a", { rankingPoints: 60, random: 0.1 }),
      racer("b", { rankingPoints: null, random: 0.9 }),
      racer("c", { rankingPoints: 100, random: 0.5 }),
      racer("e", { rankingPoints: 60, random: 0.05 }),
    ];
    expect(seedRacers("ranking_points", racers, { rng: rng(), rankingHigherFirst: true }).order).toEqual(["c", "e", "a", "b"]);
  });
});
