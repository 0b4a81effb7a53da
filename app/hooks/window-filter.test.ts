import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RaceServerMessage, ResultGroupWire, ResultRow } from "../../schema/wire/race-socket";
import { readWindowQuery, type ResultsWindow } from "../../schema/wire/results-window";
import { rankGroup, resultsWindow } from "../../schema/wire/results-ranking";
import { compareKeys } from "../../core/timing/rank";
import { FILTER_RACER_CHARS, rowsForWindow, windowFilterOf } from "../../schema/wire/window-filter";
import { followWindowFrame } from "./window-frames";

const S = 1_000_000;
const GROUPS: ResultGroupWire[] = ["men", "women"].map((id) => ({ id, name: id, sameTimeThreshold: 0, columns: [] }));

/** Ids as long as real ones (UUIDs), so the filter's id prefixes are exercised. */
const idOf = (n: number) => `racer-${String(n).padStart(6, "0")}-0000-4000-8000-000000000000`;

function row(n: number, seconds: number | null, group: string | null): ResultRow {
  return {
    racerId: idOf(n),
    status: seconds === null ? "oncourse" : "finished",
    statusText: "",
    start: 0,
    laps: seconds === null ? 0 : 1,
    splits: [],
    finish: seconds === null ? null : seconds * S,
    time: seconds === null ? null : seconds * S,
    key: seconds === null ? [1, n] : [0, seconds * S, n],
    rankKey: seconds === null ? null : [seconds * S],
    bib: n,
    name: `Racer ${n}`,
    club: null,
    team: null,
    city: null,
    course: null,
    groups: group === null ? [] : [group],
  };
}

function pageOf(rows: ResultRow[], group: ResultGroupWire, page: number, version = "10"): ResultsWindow {
  const format = { formatId: "f", name: "Results", version, displayPrecision: 1, displayDiffs: true, sameTimeDisplay: "s/t", isAnnouncer: false };
  const query = { ...readWindowQuery(new URLSearchParams(page > 1 ? `page=${page}` : "")), group: group.id };
  const counts = GROUPS.map((g) => ({ group: g, total: rows.filter((r) => r.groups.includes(g.id)).length }));
  return resultsWindow(format, counts, (id) => rankGroup({}, GROUPS.find((g) => g.id === id)!, rows, "default"), query);
}

const rowsMessage = (from: string, version: string, rows: ResultRow[], fell: string[] = []): RaceServerMessage => ({
  type: "rows",
  formatId: "f",
  from,
  version,
  rows,
  ...(fell.length > 0 ? { fell } : {}),
});

/** A frame's rows, one per racer (the room sends each racer once, as it is now). */
function frameOf(changed: [number, number | null, string | null][]): ResultRow[] {
  return [...new Map(changed.map(([n, seconds, group]) => [n, row(n, seconds, group)])).values()];
}

/** The racers of a frame that fell, as the room names them at the least: a worse key than before, or out of a group they were in. */
function fellOf(before: ResultRow[], frame: ResultRow[]): string[] {
  const held = new Map(before.map((r) => [r.racerId, r]));
  return frame
    .filter((r) => {
      const old = held.get(r.racerId);
      return old !== undefined && (compareKeys(r.key, old.key) > 0 || old.groups.some((g) => !r.groups.includes(g)));
    })
    .map((r) => r.racerId);
}

/** A field (racer n: a group and a time, or on course) and a frame of changes to some of them and to new racers. */
const field = fc.array(fc.tuple(fc.option(fc.integer({ min: 3_600, max: 3_800 }), { nil: null }), fc.constantFrom("men", "women")), {
  minLength: 0,
  maxLength: 140,
});
const changes = fc.array(
  fc.tuple(
    fc.integer({ min: 1, max: 200 }),
    fc.option(fc.integer({ min: 3_500, max: 3_900 }), { nil: null }),
    fc.constantFrom<string | null>("men", "women", null),
  ),
  { maxLength: 40 },
);

/** Fields that fill two or three pages of a group, and frames of one to three changes, where one racer's move decides. */
const bigField = fc.array(fc.tuple(fc.option(fc.integer({ min: 3_600, max: 3_800 }), { nil: null }), fc.constantFrom("men", "men", "women")), {
  minLength: 60,
  maxLength: 160,
});
const fewChanges = fc.array(
  fc.tuple(
    fc.integer({ min: 1, max: 170 }),
    fc.option(fc.integer({ min: 3_500, max: 3_900 }), { nil: null }),
    fc.constantFrom<string | null>("men", "women", null),
  ),
  { minLength: 1, maxLength: 3 },
);

describe("a paged page's filter at its shard (decision 0085)", () => {
  it("holds back only rows that change nothing the page shows or fetches: the page steps the same on the filtered frame", () => {
    fc.assert(
      fc.property(field, changes, fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 1), (racers, changed, page, groupIndex) => {
        const rows = racers.map(([seconds, group], i) => row(i + 1, seconds, group));
        const window = pageOf(rows, GROUPS[groupIndex]!, page);
        const filter = windowFilterOf(window);
        expect(filter).not.toBeNull();
        if (!filter) return false;
        const frame = frameOf(changed);
        const fell = fellOf(rows, frame);
        const whole = followWindowFrame(window, rowsMessage("10", "11", frame, fell));
        const relevant = rowsForWindow(filter, frame, fell);
        expect(relevant.fell).toEqual(fell.filter((id) => relevant.rows.some((r) => r.racerId === id)));
        if (relevant.rows.length === 0) {
          // Not sent at all: the whole frame would have changed nothing on the page but its version.
          expect(whole.refetch).toBeNull();
          expect(whole.changed ?? new Set()).toEqual(new Set());
          expect(whole.window.current).toEqual(window.current);
          return true;
        }
        const filtered = followWindowFrame(window, { type: "window-rows", formatId: "f", from: "10", version: "11", ...relevant });
        expect(filtered.window).toEqual(whole.window);
        expect(filtered.refetch).toEqual(whole.refetch);
        expect(filtered.changed).toEqual(whole.changed);
        return true;
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });

  it("either fetches itself again or shows exactly what a fresh fetch would, a racer falling back from ahead of it included", () => {
    fc.assert(
      fc.property(bigField, fewChanges, fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 1), (racers, changed, page, groupIndex) => {
        const rows = racers.map(([seconds, group], i) => row(i + 1, seconds, group));
        const group = GROUPS[groupIndex]!;
        const window = pageOf(rows, group, page);
        const frame = frameOf(changed);
        const step = followWindowFrame(window, rowsMessage("10", "11", frame, fellOf(rows, frame)));
        if (step.refetch !== null) return true;
        const now = new Map(rows.map((r) => [r.racerId, r]));
        for (const r of frame) now.set(r.racerId, r);
        const fresh = pageOf([...now.values()], group, page, "11");
        expect(step.window.current?.entries.map((e) => e.row)).toEqual(fresh.current?.entries.map((e) => e.row));
        return true;
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it("sends every page a racer that fell, and the page fetches itself again: page 2 moves up when a racer ahead of it drops out", () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(i + 1, 3_600 + i, "men"));
    const pageTwo = pageOf(rows, GROUPS[0]!, 2);
    const filter = windowFilterOf(pageTwo)!;
    // Racer 3 (third on page 1) does not finish: its new row sorts behind every finisher, so behind page 2's last row.
    const dropped = { ...row(3, null, "men"), status: "dnf" as const, statusText: "DNF" as const, key: [2, 3] };
    expect(rowsForWindow(filter, [dropped]).rows).toEqual([]);
    const sent = rowsForWindow(filter, [dropped], [dropped.racerId]);
    expect(sent).toEqual({ rows: [dropped], fell: [dropped.racerId] });
    expect(followWindowFrame(pageTwo, { type: "window-rows", formatId: "f", from: "10", version: "11", ...sent }).refetch).toBe("soon");
    // Without `fell` the page keeps racer 51 first, who is now 50th and on page 1.
    expect(followWindowFrame(pageTwo, rowsMessage("10", "11", [dropped])).refetch).toBeNull();
  });

  it("names the page's racers by a prefix short enough for a socket's attachment, and takes a search or a split order whole", () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(i + 1, 3_600 + i, "men"));
    const window = pageOf(rows, GROUPS[0]!, 1);
    const filter = windowFilterOf(window)!;
    expect(filter).toMatchObject({ type: "window", formatId: "f", version: "10", group: "men", ranking: "default", multistage: false });
    expect(filter.racers).toHaveLength(50);
    expect(filter.racers.every((id) => id.length === FILTER_RACER_CHARS)).toBe(true);
    expect(filter.lastKey).toEqual(rows[49]!.key);
    expect(JSON.stringify(filter).length).toBeLessThan(2_048);
    expect(windowFilterOf({ ...window, query: { ...window.query, search: "Racer" } })).toBeNull();
    expect(windowFilterOf({ ...window, query: { ...window.query, sort: 0 } })).toBeNull();
    // A racer finishing behind page 1 is held back; one finishing ahead of its last row, or on it, is not.
    expect(
      rowsForWindow(filter, [row(500, 3_900, "men"), row(501, 3_601, "men"), row(3, 4_000, "men"), row(502, 3_500, "women")]).rows.map((r) => r.bib),
    ).toEqual([501, 3]);
  });
});

describe("window-rows: what a page's old filter held back", () => {
  const rows = Array.from({ length: 120 }, (_, i) => row(i + 1, 3_600 + i, "men"));
  const held = (version: string) => pageOf(rows, GROUPS[0]!, 1, version);
  const catchUp = (from: string, version: string, changed: ResultRow[]): RaceServerMessage => ({
    type: "window-rows",
    formatId: "f",
    from,
    version,
    rows: changed,
  });

  it("applies over a page that already holds its version, and over one between its two versions", () => {
    const renamed = { ...rows[2]!, club: "Nakkertok" };
    for (const version of ["12", "11", "10"]) {
      const step = followWindowFrame(held(version), catchUp("10", "12", [renamed]));
      expect(step.window.current?.entries.find((e) => e.row.racerId === renamed.racerId)?.row.club, version).toBe("Nakkertok");
      expect(step.window.format.version).toBe("12");
      expect(step.refetch).toBe("soon");
    }
  });

  it("is ignored by a page fetched after it, and applies over a page older than its `from` (the ticks between had nothing for it)", () => {
    const newer = followWindowFrame(held("13"), catchUp("10", "12", [{ ...rows[2]!, club: "Old" }]));
    expect(newer.window.current?.entries[2]?.row.club).toBeNull();
    expect(newer.refetch).toBeNull();
    const skipped = followWindowFrame(held("9"), catchUp("11", "12", [row(500, 3_900, "men")]));
    expect(skipped.refetch).toBeNull();
    expect(skipped.window.format.version).toBe("12");
    expect(skipped.outcome).toBe("current");
  });
});
