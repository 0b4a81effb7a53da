import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { labelCandidates, siteLabelOf, siteLabelProblem, SITE_LABEL_MESSAGES } from "./site-address";

describe("a new club's site address", () => {
  it("is made from the club's name", () => {
    expect(siteLabelOf("Riverside Nordic Club")).toBe("riverside-nordic-club");
    expect(siteLabelOf("Club de ski de fond Québec")).toBe("club-de-ski-de-fond-quebec");
    expect(siteLabelOf("  42 Runners!! ")).toBe("runners");
    expect(siteLabelOf("XC")).toBe("xc-club");
    expect(siteLabelOf("日本")).toBe("");
    expect(siteLabelOf("A".repeat(60))).toHaveLength(40);
  });

  it("refuses what a hostname cannot hold and what the platform keeps", () => {
    expect(siteLabelProblem("riverside")).toBeNull();
    for (const bad of ["ab", "1club", "club-", "Club", "my--club", "a".repeat(41), "my.club"])
      expect(siteLabelProblem(bad), bad).toBe(SITE_LABEL_MESSAGES.shape);
    expect(siteLabelProblem("admin")).toBe("This address is reserved; choose another");
  });

  it("offers numbered alternatives that stay valid", () => {
    expect(labelCandidates("riverside").slice(0, 3)).toEqual(["riverside", "riverside-2", "riverside-3"]);
    expect(labelCandidates("a".repeat(40)).every((label) => siteLabelProblem(label) === null)).toBe(true);
  });

  it("makes a usable label from any name that has one", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (name) => {
        const label = siteLabelOf(name);
        if (label !== "") expect(siteLabelProblem(label) === null || siteLabelProblem(label) === SITE_LABEL_MESSAGES.reserved).toBe(true);
      }),
      fcParams(500),
    );
  });
});
