import { describe, expect, it } from "vitest";
import { rankingConfigProblems } from "./config-rules";

const race = (id: string) => ({ race: id });

describe("a ranking scheme's config rules", () => {
  it("accepts FIS's defaults with a season", () => {
    expect(rankingConfigProblems({ penalty_count: 5, top_finishers: 10, seasons: [{ label: "2026", races: [race("x")] }] }, "2026")).toBeNull();
  });

  it("refuses in words a penalty count above the top finishers, a season twice, a race twice, an unknown current season", () => {
    expect(rankingConfigProblems({ penalty_count: 12, top_finishers: 10, seasons: [] }, null)).toEqual({
      "config.penalty_count": "The penalty count cannot be more than the top finishers it is chosen from (10)",
    });
    const twice = [
      { label: "2026", races: [] },
      { label: "2026", races: [] },
    ];
    expect(rankingConfigProblems({ penalty_count: 5, top_finishers: 10, seasons: twice }, null)?.["config.seasons"]).toBe("The season 2026 is listed twice");
    expect(
      rankingConfigProblems({ penalty_count: 5, top_finishers: 10, seasons: [{ label: "S", races: [race("x"), race("x")] }] }, null)?.["config.seasons"],
    ).toBe("A race is in the season S twice");
    expect(rankingConfigProblems({ penalty_count: 5, top_finishers: 10, min_penalty: 20, max_penalty: 10, seasons: [] }, null)).toEqual({
      "config.max_penalty": "The maximum penalty cannot be less than the minimum penalty",
    });
    expect(rankingConfigProblems({ penalty_count: 5, top_finishers: 10, seasons: [{ label: "S", races: [] }] }, "2027")?.season).toBe(
      "The season 2027 is not one of the scheme's seasons",
    );
  });
});
