import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RaceOutcome } from "../../core/series/points";
import { computeStandings, type SeriesRace } from "../../core/series/standings";
import { fcParams } from "../../core/testing/fast-check";
import { surelyTooLarge } from "./series-standings";

const system = { rule: { method: "linear" as const, max: 100, step: 1, min: 0 }, ties: "share" as const, statusPoints: { dnf: 0, dns: 0, dsq: 0 }, bestOf: 3 };

const season = (racers: number, races: number, outcome: (i: number, r: number) => RaceOutcome): SeriesRace[] =>
  Array.from({ length: races }, (_, r) => ({
    id: `r${r}`,
    name: `Race ${r}`,
    order: r,
    scale: 1,
    entries: Array.from({ length: racers }, (_, i) => ({ identity: `p${i}`, name: `P ${i}`, club: null, category: "Open", outcome: outcome(i, r) })),
  }));

describe("standings too large for one D1 row", () => {
  it("every result cell takes at least the 50 bytes the bound counts", () => {
    const outcome = fc.oneof(
      fc.record({ kind: fc.constant("placed" as const), place: fc.integer({ min: 1, max: 9 }), time: fc.constant(null) }),
      fc.record({ kind: fc.constant("status" as const), status: fc.constantFrom("dnf" as const, "dns" as const, "dsq" as const) }),
    );
    fc.assert(
      fc.property(fc.array(outcome, { minLength: 1, maxLength: 8 }), (outcomes) => {
        const standings = computeStandings(
          system,
          season(outcomes.length, 2, (i) => outcomes[i]!),
        );
        for (const row of standings.categories[0]!.rows) for (const cell of row.cells) if (cell) expect(JSON.stringify(cell).length).toBeGreaterThanOrEqual(50);
      }),
      fcParams(),
    );
  });

  it("says so for 20 races × 2,000 racers, which are indeed over 1.9 MB, and not for a small series", () => {
    const placed = (i: number): RaceOutcome => ({ kind: "placed", place: i + 1, time: null });
    const large = computeStandings(system, season(2_000, 20, placed));
    expect(surelyTooLarge(large)).toBe(true);
    expect(new TextEncoder().encode(JSON.stringify(large)).length).toBeGreaterThan(1_900_000);
    expect(surelyTooLarge(computeStandings(system, season(50, 5, placed)))).toBe(false);
  });
});
