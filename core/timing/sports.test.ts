import { describe, expect, it } from "vitest";
import { findSport, isRaceSport, SPORTS, sortSportsCaseInsensitive, sportsSorted, sportTechniques } from "./sports";

describe("SPORTS", () => {
  it("flags the spec's non-race sports as not race-capable", () => {
    const nonRace = SPORTS.filter((s) => !s.isRace).map((s) => s.name);
    expect(nonRace.sort()).toEqual(["Art", "Baseball", "Curling", "Dining Club", "Figure Skating", "Gymnastics", "Hockey", "Music", "Orienteering", "Soccer"]);
  });

  it("offers the race sports the product times", () => {
    for (const name of ["Cross Country Skiing", "Biathlon", "Cycling", "Running", "Triathlon", "Canoe", "Alpine Skiing"])
      expect(isRaceSport(name), name).toBe(true);
  });

  it("names each sport once", () => {
    const folded = SPORTS.map((s) => s.name.toLowerCase());
    expect(new Set(folded).size).toBe(folded.length);
  });
});

describe("sorting", () => {
  it("sorts case-insensitively", () => {
    const sorted = sortSportsCaseInsensitive([{ name: "biathlon" }, { name: "Alpine Skiing" }, { name: "Cycling" }, { name: "art" }]);
    expect(sorted.map((s) => s.name)).toEqual(["Alpine Skiing", "art", "biathlon", "Cycling"]);
  });

  it("offers the whole list in that order", () => {
    const names = sportsSorted().map((s) => s.name);
    expect(names).toHaveLength(SPORTS.length);
    expect(names.slice(0, 4)).toEqual(["Alpine Skiing", "Art", "Baseball", "Biathlon"]);
    expect(names.at(-1)).toBe("Triathlon");
  });
});

describe("lookups", () => {
  it("finds a sport ignoring case", () => {
    expect(findSport(" cross country skiing ")?.name).toBe("Cross Country Skiing");
    expect(isRaceSport("ORIENTEERING")).toBe(false);
    expect(isRaceSport("Quidditch")).toBe(false);
  });

  it("gives Cross Country Skiing the techniques Free and Classic", () => {
    expect(sportTechniques("Cross Country Skiing")).toEqual(["Free", "Classic"]);
    expect(sportTechniques("Running")).toEqual([]);
  });
});
