import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../testing/fast-check";
import { ageCriterion, ageDateOf, ageOn, parseAgeBands, withAgeDates, type AgeBand } from "./age-classes";
import { categoryGroups } from "./category-groups";
import { inGroup } from "./groups";
import type { Criterion } from "./model";
import { group, racer } from "./test-races";

const bandsOf = (text: string): AgeBand[] => {
  const parsed = parseAgeBands(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.bands;
};
const labels = (text: string) => bandsOf(text).map((b) => [b.label, b.min, b.max]);

/** A racer born on `dob` (or with none) of sex `sex`, in groups made of the given criteria. */
const holds = (criteria: Criterion[], dob: string | null, sex: string | null = "F") => inGroup(group("g", { criteria }), racer("r", { fields: { dob, sex } }));

describe("age on a day", () => {
  it("counts whole years, a year more on the birthday itself", () => {
    expect(ageOn("1990-06-15", "2026-06-14")).toBe(35);
    expect(ageOn("1990-06-15", "2026-06-15")).toBe(36);
    expect(ageOn("1990-06-15", "2026-12-31")).toBe(36);
    expect(ageOn("2026-06-15", "2026-06-15")).toBe(0);
  });

  it("gives a 29 February birthday on 1 March in common years, and on the day in leap years", () => {
    expect(ageOn("2008-02-29", "2026-02-28")).toBe(17);
    expect(ageOn("2008-02-29", "2026-03-01")).toBe(18);
    expect(ageOn("2008-02-29", "2028-02-28")).toBe(19);
    expect(ageOn("2008-02-29", "2028-02-29")).toBe(20);
  });

  it("has no age without a real birth date, or when born after the day", () => {
    expect(ageOn(null, "2026-11-26")).toBeNull();
    expect(ageOn("", "2026-11-26")).toBeNull();
    expect(ageOn("2007-02-29", "2026-11-26")).toBeNull();
    expect(ageOn("1990-13-01", "2026-11-26")).toBeNull();
    expect(ageOn(1990, "2026-11-26")).toBeNull();
    expect(ageOn("2027-01-01", "2026-11-26")).toBeNull();
    expect(ageOn("1990-01-01", "race_day")).toBeNull();
  });

  it("takes the age on the race's day or on 31 December of its year", () => {
    expect(ageDateOf("race_day", "2026-11-26")).toBe("2026-11-26");
    expect(ageDateOf("year_end", "2026-11-26")).toBe("2026-12-31");
    const stored: Criterion[] = [ageCriterion("dob", { min: 35, max: 39 }, "year_end"), { field: "sex", op: "eq", value: "F" }];
    expect(withAgeDates(stored, "2026-02-01")).toEqual([
      { field: "dob", op: "age", value: [35, 39], on: "2026-12-31" },
      { field: "sex", op: "eq", value: "F" },
    ]);
  });

  // A racer born 1991-12-01 is 34 on race day (2026-02-01) but 35 at the year's end: FIS classes differ.
  it("places a racer by the basis chosen", () => {
    const masters = (basis: "race_day" | "year_end") => withAgeDates([ageCriterion("dob", { min: 35, max: 39 }, basis)], "2026-02-01");
    expect(holds(masters("race_day"), "1991-12-01")).toBe(false);
    expect(holds(masters("year_end"), "1991-12-01")).toBe(true);
  });
});

describe("age classes an organiser types", () => {
  it("reads under-classes as following on from each other, ranges, open classes and steps", () => {
    expect(labels("U10, U12, U14, U16, 17-19, 20-34, 35+")).toEqual([
      ["U10", null, 9],
      ["U12", 10, 11],
      ["U14", 12, 13],
      ["U16", 14, 15],
      ["17–19", 17, 19],
      ["20–34", 20, 34],
      ["35+", 35, null],
    ]);
    expect(labels("20-34, every 5 from 35").map(([label]) => label)).toEqual([
      "20–34",
      "35–39",
      "40–44",
      "45–49",
      "50–54",
      "55–59",
      "60–64",
      "65–69",
      "70–74",
      "75–79",
      "80+",
    ]);
    expect(labels("every 10 from 20 to 49, 50 and over")).toEqual([
      ["20–29", 20, 29],
      ["30–39", 30, 39],
      ["40–49", 40, 49],
      ["50+", 50, null],
    ]);
    expect(labels("35-39, 40–44, …")).toEqual([
      ["35–39", 35, 39],
      ["40–44", 40, 44],
    ]);
  });

  it("refuses what it cannot read, overlaps and an empty list, in words", () => {
    expect(parseAgeBands("")).toEqual({ ok: false, message: "Enter the age classes" });
    expect(parseAgeBands("U10, juniors")).toEqual({
      ok: false,
      message: "Age class “juniors” is not one we read. Age classes are like U10, 17-19, 35+ or every 5 from 35, separated by commas.",
    });
    expect(parseAgeBands("35-39, 38-42")).toEqual({ ok: false, message: "Age classes 35–39 and 38–42 overlap" });
    expect(parseAgeBands("every 5 from 35, 80+")).toEqual({ ok: false, message: "Age classes 80+ and 80+ overlap" });
    expect(parseAgeBands("40-30")).toEqual({ ok: false, message: "Age class “40-30” runs backwards" });
    expect(parseAgeBands("every 1 from 0 to 99")).toEqual({ ok: false, message: "Too many age classes: at most 60" });
  });
});

describe("category groups", () => {
  it("names age classes crossed with sex as people read them, youngest first, women first", () => {
    const groups = categoryGroups({ kind: "age", field: "dob", bands: bandsOf("U14, 35-39, 80+"), basis: "race_day" }, true);
    expect(groups.map((g) => g.name)).toEqual(["U14 Women", "U14 Men", "Women 35–39", "Men 35–39", "Women 80+", "Men 80+"]);
    expect(groups[3]!.criteria).toEqual([
      { field: "dob", op: "age", value: [35, 39], on: "race_day" },
      { field: "sex", op: "eq", value: "M" },
    ]);
  });

  it("makes one group per value of a field, the sex field in words, and splits others by sex when asked", () => {
    expect(categoryGroups({ kind: "field", field: "sex", values: ["M", "F", "m", null] }, true).map((g) => g.name)).toEqual(["Men", "Women"]);
    const clubs = categoryGroups({ kind: "field", field: "club", values: ["Nordic", "", "Alpine", "nordic"] }, true);
    expect(clubs.map((g) => g.name)).toEqual(["Nordic Women", "Nordic Men", "Alpine Women", "Alpine Men"]);
    expect(clubs[0]!.criteria).toEqual([
      { field: "club", op: "eq", value: "Nordic" },
      { field: "sex", op: "eq", value: "F" },
    ]);
  });

  it("places a racer on race day: the birthday counts, a missing birth date is in no class", () => {
    const groups = categoryGroups({ kind: "age", field: "dob", bands: bandsOf("U18, 18-34, 35+"), basis: "race_day" }, false).map((g) => ({
      ...g,
      criteria: withAgeDates(g.criteria, "2026-03-01"),
    }));
    const classOf = (dob: string | null) => groups.filter((g) => holds(g.criteria, dob)).map((g) => g.name);
    expect(classOf("2008-03-01")).toEqual(["18–34"]);
    expect(classOf("2008-03-02")).toEqual(["U18"]);
    expect(classOf("2008-02-29")).toEqual(["18–34"]);
    expect(classOf("1991-03-01")).toEqual(["35+"]);
    expect(classOf(null)).toEqual([]);
    expect(classOf("not a date")).toEqual([]);
  });
});

/** A day between 1900 and 2100, as YYYY-MM-DD. */
const day = fc
  .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** A complete banding: under-classes from the youngest, then ranges, then an open class, with no gap. */
const completeBanding = fc
  .tuple(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 0, maxLength: 8 }))
  .map(([first, widths]) => {
    const parts = [`U${first}`];
    let from = first;
    for (const width of widths) {
      parts.push(`${from}-${from + width - 1}`);
      from += width;
    }
    parts.push(`${from}+`);
    return parts.join(", ");
  });

describe("age class properties", () => {
  it("every racer with a birth date and a sex lands in exactly one group of a complete banding crossed with sex", () => {
    fc.assert(
      fc.property(completeBanding, day, day, fc.constantFrom("M", "F"), fc.constantFrom("race_day" as const, "year_end" as const), (text, a, b, sex, basis) => {
        const [dob, raceDay] = a <= b ? [a, b] : [b, a];
        const groups = categoryGroups({ kind: "age", field: "dob", bands: bandsOf(text), basis }, true);
        const holding = groups.filter((g) => holds(withAgeDates(g.criteria, raceDay), dob, sex));
        expect(holding).toHaveLength(1);
        // And nobody without a birth date is in any.
        expect(groups.some((g) => holds(withAgeDates(g.criteria, raceDay), null, sex))).toBe(false);
      }),
      fcParams(),
    );
  });

  it("a racer is a year older on each birthday and the same age the day before", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 100 }), (dob, years) => {
        const year = Number(dob.slice(0, 4)) + years;
        const birthday = dob.slice(5) === "02-29" && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? `${year}-03-01` : `${year}${dob.slice(4)}`;
        const before = new Date(Date.parse(`${birthday}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
        expect(ageOn(dob, birthday)).toBe(years);
        expect(ageOn(dob, before)).toBe(years - 1);
      }),
      fcParams(),
    );
  });
});
