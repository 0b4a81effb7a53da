import { describe, expect, it } from "vitest";
import { BUILT_IN_HEAT_FORMATS, availableHeatFormats, chooseHeatFormat, heatFormatProblems, parseSlot, seatInWords, type HeatFormat } from "./heat-formats";
import { buildBracket, compareHeats, heatStandings, MISSING_QUALIFIER_RANK, roundOf, scheduleHeats, type BracketInput, type HeatOutcome } from "./heats";

const S = 1_000_000;
const STANDARD = BUILT_IN_HEAT_FORMATS["30"]!;
/** Racer "rN" qualified Nth. */
const racers = (count: number) => Array.from({ length: count }, (_, i) => `r${i + 1}`);
const done = (order: string[], extra: Partial<HeatOutcome> = {}): HeatOutcome => ({
  finishOrder: order,
  times: {},
  statuses: {},
  ties: [],
  complete: true,
  ...extra,
});
const timed = (entries: [string, number][]): HeatOutcome =>
  done(
    entries.map(([id]) => id),
    { times: Object.fromEntries(entries.map(([id, s]) => [id, s * S])) },
  );
const input = (outcomes: Record<string, HeatOutcome>, overrides: Partial<BracketInput> = {}): BracketInput => ({
  format: STANDARD,
  qualifiers: racers(30),
  outcomes,
  dynamic: false,
  calcPrecision: 1,
  ...overrides,
});
const seatsOf = (bracket: ReturnType<typeof buildBracket>, key: string) =>
  bracket.rounds
    .flatMap((r) => r.heats)
    .find((h) => h.key === key)!
    .entries.map((e) => e.racerId);

/** Every quarterfinal won in seed order: the favourite first, the sixth seed last. */
const favouritesWinQuarters = () =>
  Object.fromEntries(STANDARD.rounds[0]!.heats.map((h) => [`r1-${h.canonical_name}`, done(h.slots.map((s) => `r${s.slice(1)}`))]));

describe("the standard 30-racer format", () => {
  it("seeds five quarterfinals of six from the qualifier by the standard table", () => {
    const bracket = buildBracket(input({}));
    expect(bracket.rounds.map((r) => [r.name, r.heats.map((h) => h.canonicalName)])).toEqual([
      ["Quarterfinals", ["QF1", "QF2", "QF3", "QF4", "QF5"]],
      ["Semifinals", ["SF1", "SF2"]],
      ["Finals", ["A-Final", "B-Final"]],
    ]);
    expect(seatsOf(bracket, "r1-QF1")).toEqual(["r1", "r10", "r11", "r20", "r21", "r30"]);
    expect(seatsOf(bracket, "r1-QF3")).toEqual(["r5", "r6", "r15", "r16", "r25", "r26"]);
    expect(bracket.rounds[0]!.heats.every((h) => h.ready && !h.complete)).toBe(true);
    // Nothing decided beyond the first round yet.
    expect(seatsOf(bracket, "r2-SF1")).toEqual([null, null, null, null, null, null]);
  });

  it("takes the top 2 of each quarterfinal and, in untimed heats, the 2 best other qualifiers as lucky losers", () => {
    const bracket = buildBracket(input(favouritesWinQuarters()));
    expect(bracket.rounds[0]!.timed).toBe(false);
    expect(seatsOf(bracket, "r2-SF1")).toEqual(["r1", "r10", "r4", "r7", "r11", "r12"]);
    expect(seatsOf(bracket, "r2-SF2")).toEqual(["r5", "r6", "r2", "r9", "r3", "r8"]);
    const qf1 = bracket.rounds[0]!.heats[0]!.entries;
    expect(qf1.map((e) => [e.racerId, e.place, e.advances])).toEqual([
      ["r1", 1, "place"],
      ["r10", 2, "place"],
      ["r11", 3, "lucky"],
      ["r20", 4, null],
      ["r21", 5, null],
      ["r30", 6, null],
    ]);
  });

  it("picks lucky losers by heat time when every finisher of the round is timed", () => {
    const outcomes = favouritesWinQuarters();
    // Times: winners 170 s, seconds 172 s; the others slower, except QF3's third (180) and QF5's fourth (181).
    for (const [key, outcome] of Object.entries(outcomes)) {
      const times = [170, 172, 190, 195, 200, 205];
      if (key === "r1-QF3") times[2] = 180;
      if (key === "r1-QF5") times[3] = 181;
      outcomes[key] = timed(outcome.finishOrder.map((id, i) => [id, times[i]!]));
    }
    const bracket = buildBracket(input(outcomes));
    expect(bracket.rounds[0]!.timed).toBe(true);
    // QF3's third (r15) and QF5's fourth (r18) beat every other non-qualifier on time.
    expect(seatsOf(bracket, "r2-SF1")).toEqual(["r1", "r10", "r4", "r7", "r15", "r18"]);
  });

  it("runs to the finals: the next six semifinalists race the B-Final, and the ranking follows the round reached", () => {
    const outcomes = {
      ...favouritesWinQuarters(),
      "r2-SF1": done(["r1", "r4", "r10", "r7", "r11", "r12"]),
      "r2-SF2": done(["r2", "r3", "r5", "r6", "r8", "r9"]),
    };
    let bracket = buildBracket(input(outcomes));
    expect(seatsOf(bracket, "r3-A-Final")).toEqual(["r1", "r4", "r2", "r3", "r5", "r6"]);
    expect(seatsOf(bracket, "r3-B-Final")).toEqual(["r7", "r8", "r9", "r10", "r11", "r12"]);

    bracket = buildBracket(
      input({ ...outcomes, "r3-A-Final": done(["r2", "r1", "r3", "r4", "r5", "r6"]), "r3-B-Final": done(["r8", "r7", "r9", "r10", "r11", "r12"]) }),
    );
    const ranking = bracket.ranking.map((r) => r.racerId);
    expect(ranking.slice(0, 12)).toEqual(["r2", "r1", "r3", "r4", "r5", "r6", "r8", "r7", "r9", "r10", "r11", "r12"]);
    // Quarterfinal thirds who did not go on, then fourths, fifths, sixths, each by qualifier rank.
    expect(ranking.slice(12)).toEqual(racers(30).slice(12));
    expect(bracket.ranking.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(bracket.ranking[0]).toMatchObject({ racerId: "r2", roundReached: 3, heatKey: "r3-A-Final", place: 1 });
    expect(bracket.ranking[12]).toMatchObject({ racerId: "r13", roundReached: 1, place: 3 });
  });

  it("ranks the B-Final below the A-Final even when it is raced first, and sorts it below within its round", () => {
    const semis = {
      ...favouritesWinQuarters(),
      "r2-SF1": done(["r1", "r4", "r10", "r7", "r11", "r12"]),
      "r2-SF2": done(["r2", "r3", "r5", "r6", "r8", "r9"]),
    };
    const bracket = buildBracket(input({ ...semis, "r3-B-Final": done(["r8", "r7", "r9", "r10", "r11", "r12"]) }));
    const finals = bracket.rounds[2]!.heats;
    expect(finals.map((h) => [h.canonicalName, h.rankIndex])).toEqual([
      ["A-Final", 0],
      ["B-Final", 1],
    ]);
    // The A-Final is not raced yet; its racers still rank above the B-Final's winner.
    expect(bracket.ranking.find((r) => r.racerId === "r8")!.rank).toBe(7);
    const heats = [
      { round: 3, rankIndex: 1, ordinal: 1, scheduledStart: 100 },
      { round: 3, rankIndex: 0, ordinal: 2, scheduledStart: 200 },
      { round: 2, rankIndex: 0, ordinal: 3, scheduledStart: 50 },
    ];
    expect([...heats].sort(compareHeats("time")).map((h) => h.ordinal)).toEqual([3, 2, 1]);
    expect([...heats].sort(compareHeats("ordinal")).map((h) => h.ordinal)).toEqual([3, 2, 1]);
  });

  it("shares a place in a photo-finish tie (tie_list); the rank is shared in the final", () => {
    const final = done(["r2", "r3", "r1", "r4", "r5", "r6"], { ties: [["r3", "r1"]] });
    const outcomes = {
      ...favouritesWinQuarters(),
      "r2-SF1": done(["r1", "r4", "r10", "r7", "r11", "r12"]),
      "r2-SF2": done(["r2", "r3", "r5", "r6", "r8", "r9"]),
      "r3-A-Final": final,
    };
    const bracket = buildBracket(input(outcomes));
    expect(bracket.rounds[2]!.heats[0]!.entries.map((e) => [e.racerId, e.place])).toEqual([
      ["r2", 1],
      ["r1", 2],
      ["r3", 2],
      ["r4", 4],
      ["r5", 5],
      ["r6", 6],
    ]);
    expect(bracket.ranking.slice(0, 4).map((r) => [r.racerId, r.rank])).toEqual([
      ["r2", 1],
      ["r1", 2],
      ["r3", 2],
      ["r4", 4],
    ]);
  });

  it("treats equal heat times at calc precision as a tie, and a tie at the cut goes to the better qualifier", () => {
    const outcomes = favouritesWinQuarters();
    // r11 crosses before r10 but both are 171.04 s at one decimal: they share second, and r10 qualified better.
    outcomes["r1-QF1"] = done(["r1", "r11", "r10", "r20", "r21", "r30"], {
      times: { r1: 170 * S, r11: 171.04 * S, r10: 171.09 * S, r20: 180 * S, r21: 181 * S, r30: 182 * S },
    });
    const bracket = buildBracket(input(outcomes));
    expect(bracket.rounds[0]!.heats[0]!.entries.map((e) => [e.racerId, e.place, e.advances])).toEqual([
      ["r1", 1, "place"],
      ["r10", 2, "place"],
      ["r11", 2, "lucky"],
      ["r20", 4, null],
      ["r21", 5, null],
      ["r30", 6, null],
    ]);
  });

  it("puts racers who did not finish a heat last (dnf, dsq, dns), and never ahead of finishers as lucky losers", () => {
    const outcomes = favouritesWinQuarters();
    outcomes["r1-QF4"] = done(["r2", "r9", "r19", "r22"], { statuses: { r12: "dsq", r29: "dns" } });
    const bracket = buildBracket(input(outcomes));
    expect(bracket.rounds[0]!.heats[3]!.entries.map((e) => [e.racerId, e.place, e.status])).toEqual([
      ["r2", 1, null],
      ["r9", 2, null],
      ["r19", 3, null],
      ["r22", 4, null],
      ["r12", null, "dsq"],
      ["r29", null, "dns"],
    ]);
    // r12 would have been the second lucky loser; the disqualification gives the seat to r13.
    expect(seatsOf(bracket, "r2-SF1").slice(4)).toEqual(["r11", "r13"]);
  });

  it("fills seats won by place as each heat finishes when heats are dynamic, and lucky losers only when the round is done", () => {
    const onlyFirst = { "r1-QF1": favouritesWinQuarters()["r1-QF1"]! };
    expect(seatsOf(buildBracket(input(onlyFirst)), "r2-SF1")).toEqual([null, null, null, null, null, null]);
    const dynamic = buildBracket(input(onlyFirst, { dynamic: true }));
    expect(seatsOf(dynamic, "r2-SF1")).toEqual(["r1", "r10", null, null, null, null]);
    expect(dynamic.rounds[1]!.heats[0]!.ready).toBe(false);
  });
});

describe("smaller and larger fields", () => {
  it("leaves seats the field cannot fill empty without holding the heat up", () => {
    const bracket = buildBracket(input({}, { qualifiers: racers(27) }));
    expect(seatsOf(bracket, "r1-QF1")).toEqual(["r1", "r10", "r11", "r20", "r21", null]);
    expect(bracket.rounds[0]!.heats.every((h) => h.ready)).toBe(true);
  });

  it("ranks racers who only raced the qualifier after everyone in the heats", () => {
    const bracket = buildBracket(input({}, { qualifiers: racers(32) }));
    expect(bracket.ranking.slice(30).map((r) => [r.racerId, r.rank, r.roundReached])).toEqual([
      ["r31", 31, 0],
      ["r32", 32, 0],
    ]);
  });

  it("runs the 12-racer format straight to semifinals and the 6-racer one to a final", () => {
    const twelve = buildBracket(input({}, { format: BUILT_IN_HEAT_FORMATS["12"]!, qualifiers: racers(12) }));
    expect(seatsOf(twelve, "r1-SF1")).toEqual(["r1", "r4", "r5", "r8", "r9", "r12"]);
    expect(seatsOf(twelve, "r1-SF2")).toEqual(["r2", "r3", "r6", "r7", "r10", "r11"]);
    const six = buildBracket(
      input({ "r1-A-Final": done(["r3", "r1", "r2", "r4", "r5", "r6"]) }, { format: BUILT_IN_HEAT_FORMATS["6"]!, qualifiers: racers(6) }),
    );
    expect(six.ranking.map((r) => r.racerId)).toEqual(["r3", "r1", "r2", "r4", "r5", "r6"]);
  });

  it("runs six quarterfinals for 36 racers and has no B-Final in the -no-b variants", () => {
    expect(BUILT_IN_HEAT_FORMATS["36"]!.rounds[0]!.heats).toHaveLength(6);
    expect(BUILT_IN_HEAT_FORMATS["30-no-b"]!.rounds[2]!.heats.map((h) => h.canonical_name)).toEqual(["A-Final"]);
  });

  it("chooses the race's format, else the largest standard format the field fills", () => {
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, [null, "30-no-b"], 50).key).toBe("30-no-b");
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, [null, null], 30).key).toBe("30");
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, [], 29).key).toBe("24");
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, [], 20).key).toBe("12");
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, [], 4).key).toBe("6");
    expect(chooseHeatFormat(BUILT_IN_HEAT_FORMATS, ["nope"], 100).key).toBe("36");
  });
});

describe("heat standings", () => {
  it("treats a racer with no qualifier rank as the largest safe integer", () => {
    const ranks: Record<string, number> = { a: 1 };
    const standings = heatStandings(["x", "a"], done(["x", "a"], { ties: [["x", "a"]] }), (id) => ranks[id] ?? MISSING_QUALIFIER_RANK, 1);
    expect(standings.map((s) => [s.racerId, s.place])).toEqual([
      ["a", 1],
      ["x", 1],
    ]);
  });
});

describe("rounds", () => {
  it("count from 1", () => {
    expect(() => roundOf(buildBracket(input({})), 0)).toThrow("Round number must start at 1");
  });

  it("refuse a round whose racers are not known yet", () => {
    const bracket = buildBracket(input({}));
    expect(roundOf(bracket, 1).name).toBe("Quarterfinals");
    expect(() => roundOf(bracket, 2)).toThrow("Calculations for a round requested before calculation");
  });
});

describe("heat formats as data", () => {
  it("accepts every built-in format", () => {
    for (const [key, format] of Object.entries(BUILT_IN_HEAT_FORMATS)) expect([key, heatFormatProblems(format)]).toEqual([key, []]);
  });

  it("reads seats", () => {
    expect(parseSlot("Q12")).toEqual({ kind: "seed", rank: 12 });
    expect(parseSlot("QF3:2")).toEqual({ kind: "place", heat: "QF3", place: 2 });
    expect(parseSlot("LL2")).toEqual({ kind: "lucky", n: 2 });
    expect(parseSlot("Q0")).toBeNull();
    expect(parseSlot("winner")).toBeNull();
  });

  it("explains what is wrong with an organiser's format", () => {
    const bad: HeatFormat = {
      name: "Mine",
      size: 8,
      rounds: [
        {
          name: "Semis",
          heats: [
            { name: "S1", canonical_name: "S1", rank_index: 0, slots: ["Q1", "Q4", "Q5", "Q9"] },
            { name: "S2", canonical_name: "S2", rank_index: 0, slots: ["Q2", "Q3", "S1:1"] },
          ],
        },
        { name: "Final", heats: [{ name: "F", canonical_name: "F", rank_index: 0, slots: ["S1:1", "S1:1", "S3:1", "LL2", "Q1"] }] },
      ],
    };
    expect(heatFormatProblems(bad)).toEqual([
      "S1: Q9 is beyond the format's size",
      "S2: the first round takes qualifiers only (S1:1)",
      "F: seat S1:1 is used twice",
      "F: S3 is not a heat of the round before",
      "F: qualifier seats (Q1) belong in the first round",
      "Round 2: lucky losers must be numbered 1, 2, 3… without gaps",
    ]);
    expect(heatFormatProblems(null)).toEqual(["A heat format must be an object with name, size and rounds"]);
  });

  it("offers the race's own valid formats beside the built-in ones", () => {
    const own = {
      name: "Four",
      size: 4,
      rounds: [{ name: "Final", heats: [{ name: "Final", canonical_name: "A-Final", rank_index: 0, slots: ["Q1", "Q2", "Q3", "Q4"] }] }],
    };
    const formats = availableHeatFormats({ four: own, broken: { name: "x" } });
    expect(formats.four).toEqual(own);
    expect(formats.broken).toBeUndefined();
    expect(formats["30"]).toBe(STANDARD);
  });
});

describe("automatic heat scheduling", () => {
  const M = 60 * S;
  const groups = [
    { id: "women", heatsPerRound: [2, 1] },
    { id: "men", heatsPerRound: [2, 1] },
  ];

  it("runs heats an interval apart, groups taking turns within a round, with a minimum rest before a racer's next round", () => {
    const schedule = scheduleHeats(groups, { firstStart: 0, interval: 5 * M, minRest: 20 * M, groupCount: null });
    expect(schedule.map((h) => [h.groupId, h.round, h.index, h.start / M])).toEqual([
      ["women", 1, 0, 0],
      ["women", 1, 1, 5],
      ["men", 1, 0, 10],
      ["men", 1, 1, 15],
      ["women", 2, 0, 25],
      ["men", 2, 0, 35],
    ]);
  });

  it("runs start groups in blocks of heat_group_count", () => {
    const schedule = scheduleHeats(groups, { firstStart: 0, interval: 5 * M, minRest: 20 * M, groupCount: 1 });
    expect(schedule.map((h) => [h.groupId, h.round, h.start / M])).toEqual([
      ["women", 1, 0],
      ["women", 1, 5],
      ["women", 2, 25],
      ["men", 1, 30],
      ["men", 1, 35],
      ["men", 2, 55],
    ]);
  });
});

describe("who is marked a lucky loser", () => {
  const advancesIn = (bracket: ReturnType<typeof buildBracket>, key: string) =>
    bracket.rounds
      .flatMap((r) => r.heats)
      .find((h) => h.key === key)!
      .entries.map((e) => [e.racerId, e.advances]);

  it("marks the B-Final's racers from six quarterfinals and two semifinals as lower, never LL", () => {
    const format = BUILT_IN_HEAT_FORMATS["36"]!;
    const quarters = Object.fromEntries(format.rounds[0]!.heats.map((h) => [`r1-${h.canonical_name}`, done(h.slots.map((s) => `r${s.slice(1)}`))]));
    // Semifinals of twelve quarterfinal winners and seconds, each won in seat order; bibs only, so untimed.
    let bracket = buildBracket(input(quarters, { format, qualifiers: racers(36) }));
    const sf1 = seatsOf(bracket, "r2-SF1") as string[];
    const sf2 = seatsOf(bracket, "r2-SF2") as string[];
    expect(sf1).toEqual(["r1", "r12", "r2", "r11", "r3", "r10"]);
    bracket = buildBracket(input({ ...quarters, "r2-SF1": done(sf1), "r2-SF2": done(sf2) }, { format, qualifiers: racers(36) }));
    // The top two of each semifinal and the two best others (by qualifier rank) race the A-Final; the next six the B-Final.
    expect(sf2).toEqual(["r4", "r9", "r5", "r8", "r6", "r7"]);
    // SF1's third and fifth (r2, r3) are the best qualifiers among the others.
    expect(seatsOf(bracket, "r3-A-Final")).toEqual(["r1", "r12", "r4", "r9", "r2", "r3"]);
    expect(seatsOf(bracket, "r3-B-Final")).toEqual(["r5", "r6", "r7", "r8", "r10", "r11"]);
    expect(advancesIn(bracket, "r2-SF1")).toEqual([
      ["r1", "place"],
      ["r12", "place"],
      ["r2", "lucky"],
      ["r11", "lower"],
      ["r3", "lucky"],
      ["r10", "lower"],
    ]);
    const marks = bracket.rounds[1]!.heats.flatMap((h) => h.entries.map((e) => e.advances));
    expect(marks.filter((m) => m === "lucky")).toHaveLength(2);
    expect(marks.filter((m) => m === "lower")).toHaveLength(6);
    // Quarterfinal winners and seconds went on by place; nobody else in a quarterfinal is marked.
    expect(bracket.rounds[0]!.heats.flatMap((h) => h.entries.map((e) => e.advances)).filter((m) => m !== null)).toEqual(Array(12).fill("place"));
  });

  it("marks LL only for racers who go on on heat time, into the semifinals and into the A-Final", () => {
    const outcomes = favouritesWinQuarters();
    // Quarterfinals timed: QF2's third (r14, 180 s) and QF4's third (r12, 181 s) are the fastest others.
    for (const [key, outcome] of Object.entries(outcomes)) {
      const times = [170, 172, key === "r1-QF2" ? 180 : key === "r1-QF4" ? 181 : 190, 195, 200, 205];
      outcomes[key] = timed(outcome.finishOrder.map((id, i) => [id, times[i]!]));
    }
    let bracket = buildBracket(input(outcomes));
    expect(seatsOf(bracket, "r2-SF1")).toEqual(["r1", "r10", "r4", "r7", "r14", "r12"]);
    expect(advancesIn(bracket, "r1-QF2").map(([, how]) => how)).toEqual(["place", "place", "lucky", null, null, null]);
    // Semifinals timed: SF1's third (165 s) and SF2's fourth (160 s) are faster than every other non-qualifier.
    const sf1 = seatsOf(bracket, "r2-SF1") as string[];
    const sf2 = seatsOf(bracket, "r2-SF2") as string[];
    const semiTimes = (fast: Record<number, number>) => (id: string, i: number) => [id, fast[i] ?? 150 + i * 10] as [string, number];
    bracket = buildBracket(input({ ...outcomes, "r2-SF1": timed(sf1.map(semiTimes({ 2: 165 }))), "r2-SF2": timed(sf2.map(semiTimes({ 3: 160 }))) }));
    expect(bracket.rounds[1]!.timed).toBe(true);
    expect(seatsOf(bracket, "r3-A-Final")).toEqual([sf1[0], sf1[1], sf2[0], sf2[1], sf2[3], sf1[2]]);
    const semiMarks = bracket.rounds[1]!.heats.flatMap((h) => h.entries.map((e) => [e.racerId, e.advances]));
    expect(semiMarks.filter(([, how]) => how === "lucky").map(([id]) => id)).toEqual([sf1[2], sf2[3]]);
    expect(semiMarks.filter(([, how]) => how === "lower")).toHaveLength(6);
    expect(semiMarks.filter(([, how]) => how === "place")).toHaveLength(4);
  });

  it("reads a lower final's seats as the next best, not as lucky losers", () => {
    expect(seatInWords("LL3", true)).toEqual({ text: "Next", title: "Next best of the round before, after those who went on" });
    expect(seatInWords("LL1", false)).toEqual({ text: "LL1", title: "Lucky loser 1" });
    expect(seatInWords("SF1:2", true)).toEqual({ text: "SF1:2", title: "Place 2 in SF1" });
    expect(seatInWords("Q4", false)).toEqual({ text: "Q4", title: "Qualifier rank 4" });
  });
});
