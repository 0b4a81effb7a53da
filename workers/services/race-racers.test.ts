import { describe, expect, it } from "vitest";
import type { RacerSlice, RacerView } from "../../durable/race/result-views";
import { racerSchema } from "../../schema/race/racer";
import { everyRacer } from "./race-racers";

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
