import { describe, expect, it } from "vitest";
import { compareKeys } from "./rank";
import {
  ALL_STAGES_LABEL,
  allStagesResult,
  carriedStages,
  MAX_STAGES,
  rankingViews,
  stageOnlyLabel,
  stageStepProblem,
  stageTotal,
  type StageTotalInput,
} from "./multistage";
import { seconds } from "./test-races";

/**
 * Stage 3 of a three-stage race (prev_stages_count 2):
 *   Ada  stage 1 1:02:10.5 (bonus 10 s), stage 2 58:20,            stage 3 1:05:00
 *   Bo   stage 1 1:01:00,                stage 2 59:00 (bonus 6 s), stage 3 1:04:30
 *   Cy   stage 1 1:00:00,                stage 2 missing,           stage 3 1:03:00
 */
const stage3: Record<string, StageTotalInput> = {
  Ada: { current: seconds(3900), previous: [seconds(3730.5), seconds(3500)], bonuses: [seconds(10), null] },
  Bo: { current: seconds(3870), previous: [seconds(3660), seconds(3540)], bonuses: [null, seconds(6)] },
  Cy: { current: seconds(3780), previous: [seconds(3600), null], bonuses: [] },
};

describe("stageTotal on a three-stage race", () => {
  it("Ada: 1:02:10.5 + 58:20 + 1:05:00 − 10 s = 3:05:20.5", () => {
    expect(stageTotal(stage3.Ada as StageTotalInput)).toBe(seconds(11120.5));
  });

  it("Bo: 1:01:00 + 59:00 + 1:04:30 − 6 s = 3:04:24", () => {
    expect(stageTotal(stage3.Bo as StageTotalInput)).toBe(seconds(11064));
  });

  it("Cy, missing stage 2, has no total", () => {
    expect(stageTotal(stage3.Cy as StageTotalInput)).toBeNull();
  });

  it("ranks Stage 3 Only as Cy, Bo, Ada and All Stages as Bo, Ada, then Cy unranked (the page's allStagesResult)", () => {
    const finishers = Object.entries(stage3).map(([name, input], order) => {
      const time = input.current as number;
      return { name, input, result: { status: "finished", time, key: [0, time, order + 1, order], rankKey: [time] } };
    });
    const byKey = <T extends { key: readonly number[] }>(a: T, b: T) => compareKeys(a.key, b.key);
    expect([...finishers].sort((a, b) => byKey(a.result, b.result)).map((f) => f.name)).toEqual(["Cy", "Bo", "Ada"]);
    const allStages = finishers.map((f) => ({ name: f.name, ...allStagesResult(f.result, f.input.previous, f.input.bonuses) })).sort(byKey);
    expect(allStages.map((r) => [r.name, r.rankKey])).toEqual([
      ["Bo", [seconds(11064)]],
      ["Ada", [seconds(11120.5)]],
      ["Cy", null],
    ]);
  });

  it("has no total without this stage's time", () => {
    expect(stageTotal({ current: null, previous: [seconds(3600)], bonuses: [] })).toBeNull();
  });

  it("refuses more bonuses than previous stages", () => {
    expect(() => stageTotal({ current: seconds(1), previous: [seconds(1)], bonuses: [0, 0] })).toThrow(RangeError);
  });
});

describe("rankingViews", () => {
  it("offers Stage N Only and All Stages", () => {
    expect(rankingViews(3)).toEqual([
      { type: "default", label: "Stage 3 Only" },
      { type: "multistage", label: "All Stages" },
    ]);
    expect(stageOnlyLabel(2)).toBe("Stage 2 Only");
    expect(ALL_STAGES_LABEL).toBe("All Stages");
  });

  it("offers only the stage on a first stage", () => {
    expect(rankingViews(1)).toEqual([{ type: "default", label: "Stage 1 Only" }]);
    expect(() => rankingViews(0)).toThrow(RangeError);
  });
});

describe("stageStepProblem: walking prev_race back from stage 3", () => {
  it("steps back to stage 2 and stage 1", () => {
    expect(stageStepProblem(["s3"], "s2")).toBeNull();
    expect(stageStepProblem(["s3", "s2"], "s1")).toBeNull();
  });

  it("refuses a loop back to a stage already in the chain, with the message the page shows", () => {
    expect(stageStepProblem(["s1", "s2"], "s1")).toBe("A stage cannot follow itself or a later stage");
    expect(stageStepProblem(["s1"], "s1")).toBe("A stage cannot follow itself or a later stage");
  });

  it("allows 50 stages before a race and refuses the 51st", () => {
    const chain = (length: number) => Array.from({ length }, (_, i) => `s${i}`);
    expect(MAX_STAGES).toBe(50);
    expect(stageStepProblem(chain(50), "next")).toBeNull();
    expect(stageStepProblem(chain(51), "next")).toBe("A race can follow at most 50 stages");
  });
});

describe("allStagesResult: the All Stages ranking of a three-stage race", () => {
  // Stage 3 of 3. Stage times 1:00:00 and 58:00 before; Ana has a 10 s bonus from stage 1.
  const row = (bib: number, order: number, status: string, time: number | null) => ({
    status,
    time,
    key: status === "finished" ? [0, time ?? 0, bib, order] : [1, bib, order],
    rankKey: status === "finished" ? [time ?? 0] : null,
  });
  const S = 1_000_000;

  it("ranks a finisher on the total of every stage less the bonuses", () => {
    expect(allStagesResult(row(1, 0, "finished", 3540 * S), [3600 * S, 3480 * S], [10 * S, null])).toEqual({
      status: "finished",
      time: 10610 * S,
      rankKey: [10610 * S],
      key: [0, 10610 * S, 1, 0],
    });
  });

  it("puts a finisher who missed a stage after the ranked ones, unranked", () => {
    expect(allStagesResult(row(2, 1, "finished", 3500 * S), [3600 * S, null], [])).toEqual({
      status: "finished",
      time: null,
      rankKey: null,
      key: [0, Number.MAX_SAFE_INTEGER, 2, 1],
    });
  });

  it("keeps a racer still out as the stage has them", () => {
    const out = row(3, 2, "oncourse", null);
    expect(allStagesResult(out, [3600 * S, 3480 * S], [])).toBe(out);
  });
});

describe("carriedStages: stage 3 brings in stages 1 and 2 from stage 2's racers", () => {
  const stage2 = [
    { bib: 1, person: "p-ana", time: seconds(3480), stageTimes: [seconds(3600)], stageBonuses: [seconds(10)] },
    { bib: 2, person: null, time: null, stageTimes: [seconds(3650)], stageBonuses: [] },
    { bib: 7, person: "p-cy", time: seconds(3500), stageTimes: [], stageBonuses: [] },
  ];

  it("matches by person first: Ana kept her person though her bib changed to 11", () => {
    expect(carriedStages({ bib: 11, person: "p-ana" }, stage2, 2)).toEqual({ stageTimes: [seconds(3600), seconds(3480)], stageBonuses: [seconds(10), null] });
  });

  it("matches by bib when either has no person; a DNF in stage 2 carries a null stage time", () => {
    expect(carriedStages({ bib: 2, person: "p-ben" }, stage2, 2)).toEqual({ stageTimes: [seconds(3650), null], stageBonuses: [null, null] });
  });

  it("does not take a bib held by a different person, and a stage 1 time missing in stage 2 stays null", () => {
    expect(carriedStages({ bib: 7, person: "p-other" }, stage2, 2)).toBeNull();
    expect(carriedStages({ bib: 7, person: "p-cy" }, stage2, 2)).toEqual({ stageTimes: [null, seconds(3500)], stageBonuses: [null, null] });
  });
});
