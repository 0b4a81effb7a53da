import { describe, expect, it } from "vitest";
import { rankingIdentity } from "./identity";

const base = { licence: null, person: null, name: "Anna Virtanen", birthYear: null, club: "Nordic SC" };

describe("a racer's identity across a scheme's races", () => {
  it("is the licence number, normalised, before anything else", () => {
    expect(rankingIdentity({ ...base, licence: "AB-0077", person: "p1" })).toBe(rankingIdentity({ ...base, licence: "ab 0077", club: "Other" }));
  });

  it("is the person, else the folded name with the birth year, else with the club", () => {
    expect(rankingIdentity({ ...base, person: "p1" })).toBe("p:p1");
    expect(rankingIdentity({ ...base, name: "VIRTANEN, Änna", birthYear: 2001 })).toBe(rankingIdentity({ ...base, birthYear: 2001, club: "Other" }));
    expect(rankingIdentity({ ...base, birthYear: 2001 })).not.toBe(rankingIdentity({ ...base, birthYear: 2002 }));
    expect(rankingIdentity(base)).not.toBe(rankingIdentity({ ...base, club: "Other" }));
  });
});
