import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fcParams } from "../testing/fast-check";
import { byBibThenLastName, matchesRacerSearch, racerDisplayName } from "./racer-name";

describe("racerDisplayName", () => {
  it("reads First Last", () => {
    expect(racerDisplayName({ firstName: "Anna", lastName: "Berg" }, false)).toBe("Anna Berg");
  });

  it("puts the last name in uppercase first when the race is last-name-first", () => {
    expect(racerDisplayName({ firstName: "Anna", lastName: "van der Berg" }, true)).toBe("VAN DER BERG, Anna");
  });

  it("trims, and drops the separator when a part is blank", () => {
    expect(racerDisplayName({ firstName: "  Anna ", lastName: " Berg  " }, false)).toBe("Anna Berg");
    expect(racerDisplayName({ firstName: "Anna", lastName: "  " }, true)).toBe("Anna");
    expect(racerDisplayName({ firstName: null, lastName: "Berg" }, true)).toBe("BERG");
    expect(racerDisplayName({ firstName: "", lastName: "Berg" }, false)).toBe("Berg");
  });

  it("falls back to the fullname, unchanged by last-name-first", () => {
    expect(racerDisplayName({ firstName: " ", lastName: "", fullname: " Team Nordic " }, true)).toBe("Team Nordic");
    expect(racerDisplayName({ fullname: "Team Nordic" }, false)).toBe("Team Nordic");
    expect(racerDisplayName({}, false)).toBe("");
  });

  it("ignores the fullname when a name part is present", () => {
    expect(racerDisplayName({ firstName: "Anna", lastName: "Berg", fullname: "Someone Else" }, false)).toBe("Anna Berg");
  });
});

describe("matchesRacerSearch", () => {
  const anna = { bib: 101, firstName: "Anna", lastName: "Côté", fullname: "" };

  it("matches digits to the bib exactly, not to part of it", () => {
    expect(matchesRacerSearch(anna, "101", false)).toBe(true);
    expect(matchesRacerSearch(anna, "10", false)).toBe(false);
    expect(matchesRacerSearch({ ...anna, bib: null }, "101", false)).toBe(false);
  });

  it("matches any part of the name as shown, as first and last, or the full name, whatever the case", () => {
    expect(matchesRacerSearch(anna, "na cô", false)).toBe(true);
    expect(matchesRacerSearch(anna, "CÔTÉ, A", true)).toBe(true);
    expect(matchesRacerSearch(anna, "côté, a", false)).toBe(false);
    expect(matchesRacerSearch({ bib: 7, firstName: "", lastName: "", fullname: "Team Aurora" }, "aurora", false)).toBe(true);
    expect(matchesRacerSearch(anna, "ben", false)).toBe(false);
  });

  it("matches every racer when the search is blank", () => {
    expect(matchesRacerSearch(anna, "  ", true)).toBe(true);
  });
});

describe("byBibThenLastName", () => {
  it("orders by bib, racers without one last, then by last name as the locale orders it", () => {
    const racers = [
      { bib: null, lastName: "Zeller" },
      { bib: 12, lastName: "Berg" },
      { bib: null, lastName: "Éclair" },
      { bib: 3, lastName: "Young" },
      { bib: null, lastName: "eagle" },
    ];
    expect([...racers].sort(byBibThenLastName).map((r) => `${r.bib ?? "-"} ${r.lastName}`)).toEqual(["3 Young", "12 Berg", "- eagle", "- Éclair", "- Zeller"]);
  });

  it("orders names exactly as localeCompare does", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(Math.sign(byBibThenLastName({ bib: null, lastName: a }, { bib: null, lastName: b }))).toBe(Math.sign(a.localeCompare(b)));
      }),
      fcParams(),
    );
  });
});
