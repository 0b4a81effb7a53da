import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeElement } from "../forms/test-elements";
import { fcParams } from "../testing/fast-check";
import { ageOn, memberDetailsOf, personKey, programsChosen, seasonFor, seasonsOverlap, type SeasonSpan } from "./membership";

const DAY = 86_400_000;
const at = (date: string) => Date.parse(`${date}T00:00:00Z`);
const season = (id: string, from: string, to: string): SeasonSpan => ({ id, name: id, startsAt: at(from), endsAt: at(to) });

describe("the season a membership is for", () => {
  const seasons = [season("2025-26", "2025-09-01", "2026-09-01"), season("2026-27", "2026-09-01", "2027-09-01")];

  it("is the running season, or the next one before it starts, or none", () => {
    expect(seasonFor(seasons, at("2026-03-15"))?.id).toBe("2025-26");
    expect(seasonFor(seasons, at("2026-09-01"))?.id).toBe("2026-27");
    expect(seasonFor(seasons, at("2024-12-01"))?.id).toBe("2025-26");
    expect(seasonFor(seasons, at("2027-09-01"))).toBeNull();
  });

  it("contains the moment when any season does, else starts after it and first", () => {
    const span = fc.record({ start: fc.integer({ min: 0, max: 1000 }), length: fc.integer({ min: 1, max: 400 }) });
    fc.assert(
      fc.property(fc.array(span, { maxLength: 6 }), fc.integer({ min: -50, max: 1500 }), (spans, day) => {
        const list = spans.map((s, i) => ({ id: `s${i}`, name: `s${i}`, startsAt: s.start * DAY, endsAt: (s.start + s.length) * DAY }));
        const chosen = seasonFor(list, day * DAY);
        const running = list.filter((s) => s.startsAt <= day * DAY && day * DAY < s.endsAt);
        if (running.length > 0) return chosen !== null && running.includes(chosen);
        const later = list.filter((s) => s.startsAt > day * DAY);
        if (later.length === 0) return chosen === null;
        return chosen !== null && chosen.startsAt === Math.min(...later.map((s) => s.startsAt));
      }),
      fcParams(),
    );
  });

  it("says two seasons overlap only when they share a moment", () => {
    expect(seasonsOverlap(seasons[0]!, seasons[1]!)).toBe(false);
    expect(seasonsOverlap(seasons[0]!, season("x", "2026-08-31", "2026-10-01"))).toBe(true);
  });
});

describe("recognising a person again", () => {
  it("ignores case, accents and extra spaces, and keeps namesakes with other birth dates apart", () => {
    const a = personKey({ firstName: "Émile ", lastName: "Côté", birthDate: "2010-05-01", email: null });
    expect(personKey({ firstName: "emile", lastName: "cote  ", birthDate: "2010-05-01", email: "x@y.z" })).toBe(a);
    expect(personKey({ firstName: "Émile", lastName: "Côté", birthDate: "2012-05-01", email: null })).not.toBe(a);
  });

  it("falls back on the e-mail address without a birth date", () => {
    const one = personKey({ firstName: "Ann", lastName: "Lee", birthDate: null, email: "ann@example.com" });
    expect(personKey({ firstName: "Ann", lastName: "Lee", birthDate: null, email: "other@example.com" })).not.toBe(one);
  });
});

describe("what a membership records", () => {
  const elements = [
    makeElement("text", { id: "first", caption: "First name" }),
    makeElement("text", { id: "last", caption: "Last name" }),
    makeElement("dob", { id: "dob" }),
    makeElement("gender", { id: "gender" }),
    makeElement("email", { id: "email" }),
    makeElement("membership", { id: "panel" }),
  ];
  const names = { firstNameFieldId: null, lastNameFieldId: null };

  it("reads the person and the chosen class from the answers", () => {
    const values = {
      first: { v: "Ann", p: 0 },
      last: { v: "Lee", p: 0 },
      dob: { v: "2011-02-28", p: 0 },
      gender: { v: "F", p: 0 },
      email: { v: " Ann@Example.com", p: 0 },
      panel: { v: { option: "o1", member_type: "racing", division_fees: 4500 }, p: 4500 },
    };
    expect(memberDetailsOf(elements, names, { id: "i1", values })).toEqual({
      firstName: "Ann",
      lastName: "Lee",
      birthDate: "2011-02-28",
      gender: "F",
      email: "ann@example.com",
      memberClass: "racing",
      divisionFees: 4500,
      elementId: "panel",
    });
  });

  it("is nothing for a person who bought no membership", () => {
    expect(memberDetailsOf(elements, names, { id: "i2", values: { first: { v: "Bo", p: 0 }, panel: { v: null, p: 0 } } })).toBeNull();
  });
});

describe("age on a date", () => {
  it("counts whole years, birthdays on the day included, 29 February on 1 March in other years", () => {
    expect(ageOn("2010-05-01", "2026-05-01")).toBe(16);
    expect(ageOn("2010-05-01", "2026-04-30")).toBe(15);
    expect(ageOn("2012-02-29", "2026-02-28")).toBe(13);
    expect(ageOn("2012-02-29", "2026-03-01")).toBe(14);
    expect(ageOn(null, "2026-03-01")).toBeNull();
  });
});

describe("the programs a member signed up for", () => {
  const single = makeElement("option", { id: "one", options_list: [{ id: "a", display: "Jackrabbits" } as never, { id: "b", display: "Racing" } as never] });
  const several = makeElement("multioption", {
    id: "many",
    options_list: [{ id: "c", display: " track attack" } as never, { id: "d", display: "T-shirt" } as never],
  });

  it("are the chosen options named like one of the division's programs, without case", () => {
    const values = { one: { v: "a", p: 0 }, many: { v: ["c", "d"], p: 0 } };
    expect(programsChosen([single, several], values, ["Jackrabbits", "Track Attack"])).toEqual(["Jackrabbits", "Track Attack"]);
    expect(programsChosen([single, several], values, [])).toEqual([]);
    expect(programsChosen([single, several], { one: { v: "b", p: 0 } }, ["Jackrabbits"])).toEqual([]);
  });
});
