import { describe, expect, it } from "vitest";
import { doneMessage, doneUrl, groupStartOrderFormSchema, raceStartOrderFormSchema } from "./start-order.server";

const clock = { zeroTime: 0, startTime: 9 * 3600 * 1_000_000, endTime: null };

describe("start order forms", () => {
  it("refuses a Seed Group Order that is not numbers, and stores a good one normalised", () => {
    const refused = groupStartOrderFormSchema.safeParse({ custom_seed_order: "5, four" });
    expect(refused.error?.issues[0]).toMatchObject({ path: ["custom_seed_order"], message: "Enter seed group numbers separated by commas" });
    expect(
      groupStartOrderFormSchema.parse({ seed_function: "", custom_seed_order: " 6, 5,,4 ", starttime_sort: "seed", first_bib: "", reserved_bibs: "" }),
    ).toEqual({
      seed_function: null,
      custom_seed_order: "6,5,4",
      starttime_sort: "seed",
      first_bib: null,
      reserved_bibs: "",
    });
    expect(groupStartOrderFormSchema.safeParse({ seed_function: "fastest" }).error?.issues[0]?.message).toBe("Choose a seed function");
  });

  it("reads the race's bib lists, times in seconds and checkboxes", () => {
    const parsed = raceStartOrderFormSchema.parse({
      seed_function: "cpl_individual",
      starttime_sort: "bib",
      missing_bibs_csv: "45, 40-44",
      start_interval: "30",
      start_size: "2",
      mass_start_cutoff: "180",
      is_backwards_bibs: "on",
    });
    expect(parsed).toMatchObject({
      missing_bibs_csv: "40-45",
      reserved_bibs: "",
      start_interval: 30_000_000,
      mass_start_cutoff: 180_000_000,
      is_backwards_bibs: true,
      is_mass_start_cutoff: false,
      first_bib: null,
      prev_stages_count: 0,
    });
    expect(
      raceStartOrderFormSchema.safeParse({
        seed_function: "random",
        starttime_sort: "bib",
        missing_bibs_csv: "9-1",
        start_interval: "30",
        start_size: "1",
        mass_start_cutoff: "1",
      }).error?.issues[0]?.message,
    ).toBe("The range 9-1 runs backwards; write it 1-9");
  });
});

describe("the status line", () => {
  it("says what was done, with counts read from the address", () => {
    const line = (url: string) => doneMessage(new URL(url, "http://x").searchParams, clock);
    expect(line(doneUrl("/p", "seed", { racers: 25, groups: 1, changed: 3 }))).toBe("Seeded 25 racers in 1 start group (3 changed).");
    expect(line(doneUrl("/p", "times", { racers: 2, groups: 2, changed: 2, first: 9 * 3600 * 1_000_000, last: (9 * 3600 + 30) * 1_000_000 }))).toBe(
      "Assigned start times to 2 racers in 2 start groups, from 09:00:00 to 09:00:30 (2 changed).",
    );
    expect(line(doneUrl("/p", "bibs", { racers: 1, groups: 1, changed: 0, first: 7, last: 7 }))).toBe(
      "Assigned bibs 7–7 to 1 racer in 1 start group (0 changed).",
    );
    expect(line("/p?done=other")).toBeNull();
    expect(line("/p")).toBeNull();
  });
});
