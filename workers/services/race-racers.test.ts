import { describe, expect, it } from "vitest";
import type { RacerSlice, RacerView } from "../../durable/race/result-views";
import { racerSchema } from "../../schema/race/racer";
import { reportRacerOf } from "../../schema/race/report-racer";
import { everyRacer, everyReportRacer } from "./race-racers";

function view(id: string, bib: number | null, lastName: string): RacerView {
  return { id, data: racerSchema.parse({ bib, last_name: lastName }), status: "notstarted", statusText: "", time: null };
}

describe("everyRacer", () => {
  it("gathers the field slice by slice, asking after each slice's cursor, and orders it by bib then name", async () => {
    const slices: Record<number, RacerSlice> = {
      0: { racers: [view("a", 12, "Berg"), view("b", null, "Wong")], next: 40 },
      40: { racers: [view("c", 3, "Côté"), view("d", null, "Roy")], next: 77 },
      77: { racers: [view("e", 12, "Abel")], next: null },
    };
    const asked: number[] = [];
    const racers = await everyRacer({
      racerSlice: async (after, limit) => {
        asked.push(after);
        expect(limit).toBe(2_000);
        return slices[after]!;
      },
    });
    expect(asked).toEqual([0, 40, 77]);
    expect(racers.map((r) => r.id)).toEqual(["c", "e", "a", "d", "b"]);
  });
});

describe("everyReportRacer", () => {
  it("gathers the reports' racers slice by slice with the race's country field, in the order the room gives them", async () => {
    const doc = (bib: number, country: string) => ({ id: `r${bib}`, data: racerSchema.parse({ bib, custom: { land: country } }) });
    const slices: Record<number, { racers: ReturnType<typeof reportRacerOf>[]; next: number | null }> = {
      0: { racers: [reportRacerOf(doc(9, "NOR"), "land")], next: 5 },
      5: { racers: [reportRacerOf(doc(2, ""), "land")], next: null },
    };
    const asked: [number, string | null][] = [];
    const racers = await everyReportRacer(
      {
        reportRacerSlice: async (after, _limit, countryKey) => {
          asked.push([after, countryKey]);
          return slices[after]!;
        },
      },
      "land",
    );
    expect(asked).toEqual([
      [0, "land"],
      [5, "land"],
    ]);
    expect(racers.map((r) => [r.id, r.bib, r.country])).toEqual([
      ["r9", 9, "NOR"],
      ["r2", 2, null],
    ]);
  });
});
