import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fcParams } from "../../core/testing/fast-check";
import { applyRowChange, patchRows, rowChange } from "./race-row-patch";
import type { ResultRow, RowChange } from "./race-socket";
import { readRaceServerMessage } from "./race-socket-read-all";

const split = fc.record({ index: fc.nat(20), coursePointId: fc.constantFrom("p1", "p2", "p3"), lap: fc.nat(5), time: fc.nat(), elapsed: fc.nat() });
const nullableText = fc.option(fc.string({ maxLength: 8 }), { nil: null });
const row = (racerId: string) =>
  fc.record(
    {
      racerId: fc.constant(racerId),
      status: fc.constantFrom("dns", "dnf", "dsq", "notstarted", "oncourse", "finished"),
      statusText: fc.constantFrom("", "DSQ", "DNS", "DNF"),
      start: fc.option(fc.nat(), { nil: null }),
      laps: fc.nat(5),
      splits: fc.array(split, { maxLength: 6 }),
      finish: fc.option(fc.nat(), { nil: null }),
      time: fc.option(fc.nat(), { nil: null }),
      key: fc.array(fc.integer(), { maxLength: 4 }),
      rankKey: fc.option(fc.array(fc.integer(), { maxLength: 4 }), { nil: null }),
      bib: fc.option(fc.nat(999), { nil: null }),
      name: fc.string({ maxLength: 8 }),
      club: nullableText,
      team: nullableText,
      city: nullableText,
      course: nullableText,
      groups: fc.array(fc.constantFrom("g1", "g2"), { maxLength: 2 }),
      leg: fc.option(fc.nat(4), { nil: null }),
      runs: fc.array(fc.record({ status: fc.constantFrom("finished", "dnf"), time: fc.option(fc.nat(), { nil: null }) }), { maxLength: 2 }),
    },
    {
      requiredKeys: [
        "racerId",
        "status",
        "statusText",
        "start",
        "laps",
        "splits",
        "finish",
        "time",
        "key",
        "rankKey",
        "bib",
        "name",
        "club",
        "team",
        "city",
        "course",
        "groups",
      ],
    },
  ) as fc.Arbitrary<ResultRow>;

/** A row and a later one of the same racer: often the same with a split added, sometimes anything at all. */
const beforeAndAfter: fc.Arbitrary<[ResultRow, ResultRow]> = row("r1").chain((before) =>
  fc.oneof(
    row("r1").map((after): [ResultRow, ResultRow] => [before, after]),
    fc.tuple(split, fc.nat(5)).map(([added, laps]): [ResultRow, ResultRow] => [before, { ...before, splits: [...before.splits, added], laps }]),
    fc.constant<[ResultRow, ResultRow]>([before, { ...before }]),
  ),
);

/** A row as the wire carries it (JSON drops keys holding undefined). */
const wire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A racer on course after one point. */
const row1 = (): ResultRow => ({
  racerId: "r1",
  status: "oncourse",
  statusText: "",
  start: 0,
  laps: 1,
  splits: [{ index: 0, coursePointId: "p1", lap: 1, time: 100, elapsed: 100 }],
  finish: null,
  time: null,
  key: [1, -1, 100],
  rankKey: [1, -1, 100],
  bib: 7,
  name: "Ada Lovelace",
  club: "Nordic",
  team: null,
  city: "Ottawa",
  course: "c1",
  groups: ["g1"],
});

describe("row changes", () => {
  it("take the held row to the new one exactly, or say the new one goes whole", () => {
    fc.assert(
      fc.property(beforeAndAfter, ([before, after]) => {
        const change = rowChange(before, after);
        if (change === null) {
          // Only a row that lost a field goes whole.
          expect(Object.keys(before).some((key) => !(key in after))).toBe(true);
          return;
        }
        expect(applyRowChange(wire(before), wire(change))).toStrictEqual(wire(after));
      }),
      fcParams(),
    );
  });

  it("carry only a passed point's split and what it moved, not the name, groups or earlier splits", () => {
    const before = row1();
    const added = { index: 1, coursePointId: "p2", lap: 1, time: 250, elapsed: 250 };
    const after: ResultRow = { ...before, splits: [...before.splits, added], key: [1, -2, 250], rankKey: [1, -2, 250] };
    expect(rowChange(before, after)).toStrictEqual({ racerId: "r1", splitsFrom: 1, splits: [added], key: [1, -2, 250], rankKey: [1, -2, 250] });
    // A row that lost a field goes whole.
    expect(rowChange({ ...before, leg: 2 }, before)).toBeNull();
    // A key holding undefined is no field at all (a row from an RPC keeps it; JSON drops it).
    expect(rowChange({ ...before, leg: undefined }, before)).toStrictEqual({ racerId: "r1" });
  });

  it("name a racer by its handle when the row has one, and send the row whole when the handle changed", () => {
    const before = { ...row1(), h: 12 };
    expect(rowChange(before, { ...before, bib: 8 })).toStrictEqual({ h: 12, bib: 8 });
    // Deleted and added again: a new handle the client must learn from the whole row.
    expect(rowChange(before, { ...before, h: 40 })).toBeNull();
    expect(applyRowChange(before, { h: 12, bib: 8 })).toStrictEqual({ ...before, bib: 8 });
  });

  it("make a patch frame the browser reads, from which the held rows become the frame's rows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(beforeAndAfter, fc.boolean()), { maxLength: 5 }), fc.array(row("new"), { maxLength: 1 }), (pairs, fresh) => {
        // Some racers have a handle (stored since storage step 7), some not: a change names each as it can.
        const handle = (i: number, has: boolean) => (has ? { h: i + 1 } : {});
        const held = new Map(pairs.map(([[before], has], i) => [`r${i}`, { ...before, racerId: `r${i}`, ...handle(i, has) }]));
        const rows = [...pairs.map(([[, after], has], i) => ({ ...after, racerId: `r${i}`, ...handle(i, has) })), ...fresh];
        const patch = patchRows(held, rows);
        const frame = readRaceServerMessage(wire({ type: "patch", formatId: "f", from: "1", version: "2", ...patch }));
        expect(frame?.type).toBe("patch");
        if (frame?.type !== "patch") return;
        const rebuilt = new Map(wire([...held]));
        for (const whole of frame.rows) rebuilt.set(whole.racerId, whole);
        const idOf = (change: RowChange) => (change.h === undefined ? change.racerId! : `r${change.h - 1}`);
        for (const change of frame.changes) rebuilt.set(idOf(change), applyRowChange(rebuilt.get(idOf(change))!, change));
        for (const after of rows) expect(rebuilt.get(after.racerId)).toStrictEqual(wire(after));
      }),
      fcParams(),
    );
  });
});
