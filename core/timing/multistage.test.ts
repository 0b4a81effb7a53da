import { describe, expect, it } from "vitest";
import { ALL_STAGES_LABEL, rankingTime, rankingViews, stageChain, stageOnlyLabel, stageTotal, type StageTotalInput } from "./multistage";
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

  it("ranks Stage 3 Only as Cy, Bo, Ada and All Stages as Bo, Ada (Cy unranked)", () => {
    const orderBy = (type: "default" | "multistage") =>
      Object.entries(stage3)
        .map(([name, input]) => ({ name, time: rankingTime(type, input) }))
        .filter((r): r is { name: string; time: number } => r.time !== null)
        .sort((a, b) => a.time - b.time)
        .map((r) => r.name);
    expect(orderBy("default")).toEqual(["Cy", "Bo", "Ada"]);
    expect(orderBy("multistage")).toEqual(["Bo", "Ada"]);
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

describe("stageChain", () => {
  it("follows prev_race back to the first stage", () => {
    const prev: Record<string, string | null> = { s3: "s2", s2: "s1", s1: null };
    expect(stageChain("s3", (id) => prev[id] ?? null)).toEqual(["s1", "s2", "s3"]);
  });

  it("refuses a prev_race loop", () => {
    const prev: Record<string, string> = { s2: "s1", s1: "s2" };
    expect(() => stageChain("s2", (id) => prev[id] ?? null)).toThrow(RangeError);
  });
});
