import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RacerStatus } from "./model";
import {
  leaveAfter,
  median,
  passesOf,
  PRECALL_GRACE_US,
  PRECALL_MAX,
  PRECALL_TIMEOUT_US,
  precallList,
  TYPICAL_SAMPLES,
  typicalTime,
  type PrecallRacer,
  type PrecallRead,
} from "./precall";
import { at, GUN, seconds } from "./test-races";
import { fcParams } from "../testing/fast-check";

/** A racer on a lap course: `splits` are the seconds after the gun at which they passed each split in turn. */
function onCourse(id: string, splits: number[], overrides: Partial<PrecallRacer> = {}): PrecallRacer {
  return {
    racerId: id,
    status: "oncourse",
    start: GUN,
    splits: splits.map((s, index) => ({ index, time: at(s), elapsed: seconds(s) })),
    course: "10 km",
    ...overrides,
  };
}

const read = (racerId: string, s: number, pointId = "pre"): PrecallRead => ({ racerId, pointId, time: at(s) });

describe("the precall list", () => {
  it("lists a racer on course from the precall until a timing point reads them, newest first", () => {
    const racers = [onCourse("a", [300]), onCourse("b", [290]), onCourse("c", [310, 600])];
    // a and b passed the precall on lap 2; c passed it on lap 1 and then the lap line.
    const reads = [read("c", 580), read("a", 570), read("b", 575), read("b", 575.4)];
    const list = precallList(racers, reads, at(576));
    expect(list.map((e) => [e.racerId, e.time, e.nextIndex])).toEqual([
      ["b", at(575), 1],
      ["a", at(570), 1],
    ]);
  });

  it("takes a racer off when they finish, are out, or passed the precall before their start", () => {
    const reads = [read("a", 570), read("b", 570), read("c", 570), read("d", -30), read("e", 570)];
    const racers = [
      onCourse("a", [300, 600], { status: "finished" }),
      onCourse("b", [300], { status: "dnf" }),
      onCourse("c", [300], { status: "dsq" }),
      onCourse("d", []),
      onCourse("e", [], { status: "dns" }),
    ];
    expect(precallList(racers, reads, at(580))).toEqual([]);
  });

  it("lists a point-to-point racer whose precall is their first read (the engine has them not started)", () => {
    expect(precallList([onCourse("a", [], { status: "notstarted" })], [read("a", 900)], at(901)).map((e) => [e.racerId, e.nextIndex])).toEqual([["a", 0]]);
  });

  it("expects a racer after the median time others took from the precall point to the next point on their course", () => {
    // Three racers already went from the precall to the line in 20, 30 and 25 s; another course took 90 s.
    const done = [onCourse("a", [300, 620]), onCourse("b", [300, 650]), onCourse("c", [300, 640]), onCourse("x", [300, 700], { course: "5 km" })];
    const reads = [read("a", 600), read("b", 620), read("c", 615), read("x", 610), read("d", 900), read("e", 910)];
    const list = precallList([...done, onCourse("d", [320]), onCourse("e", [330], { course: "5 km" })], reads, at(905));
    const d = list.find((e) => e.racerId === "d")!;
    expect(d.typical).toEqual({ duration: seconds(25), samples: 3 });
    expect(d.expectedAt).toBe(at(925));
    expect(d.expectedElapsed).toBe(seconds(925));
    expect(list.find((e) => e.racerId === "e")!.typical).toEqual({ duration: seconds(90), samples: 1 });
  });

  it("has no expected time before anyone went from the precall point to the next, and keeps the racer 10 minutes", () => {
    const [entry] = precallList([onCourse("a", [300])], [read("a", 570)], at(571));
    expect(entry).toMatchObject({ expectedAt: null, expectedElapsed: null, typical: null, leaveAt: at(570) + PRECALL_TIMEOUT_US });
    expect(precallList([onCourse("a", [300])], [read("a", 570)], at(570) + PRECALL_TIMEOUT_US + 1)).toEqual([]);
  });

  it("lets a racer go twice the typical time after the precall, and at least two minutes over it", () => {
    expect(leaveAfter(null)).toBe(PRECALL_TIMEOUT_US);
    expect(leaveAfter({ duration: seconds(20), samples: 1 })).toBe(seconds(20) + PRECALL_GRACE_US);
    expect(leaveAfter({ duration: seconds(200), samples: 1 })).toBe(seconds(400));
    expect(leaveAfter({ duration: seconds(400), samples: 1 })).toBe(PRECALL_TIMEOUT_US);
  });

  it("takes the typical time from the newest passes, the point's own when the course has none", () => {
    const samples = Array.from({ length: TYPICAL_SAMPLES + 10 }, (_, i) => ({ pointId: "pre", course: "c", at: at(i), duration: seconds(i < 10 ? 100 : 20) }));
    expect(typicalTime(samples, "pre", "c")).toEqual({ duration: seconds(20), samples: TYPICAL_SAMPLES });
    expect(typicalTime(samples, "pre", "other")).toEqual({ duration: seconds(20), samples: TYPICAL_SAMPLES });
    expect(typicalTime(samples, "elsewhere", "c")).toBeNull();
    expect(median([3, 1, 2, 4])).toBe(2);
  });

  it("counts the reads of one pass as one, timed by the first", () => {
    const passes = passesOf(onCourse("a", [300, 600]), [read("a", 590.4), read("a", 590), read("a", 290), read("a", 890)]);
    expect(passes).toEqual([
      { racerId: "a", pointId: "pre", time: at(290), next: { index: 0, time: at(300) } },
      { racerId: "a", pointId: "pre", time: at(590), next: { index: 1, time: at(600) } },
      { racerId: "a", pointId: "pre", time: at(890), next: null },
    ]);
  });

  it("keeps to the rules on any race (property)", () => {
    const statuses: RacerStatus[] = ["oncourse", "oncourse", "finished", "dnf", "dns", "notstarted"];
    const racerArb = fc.record({
      status: fc.constantFrom(...statuses),
      splits: fc.uniqueArray(fc.integer({ min: 1, max: 3000 }), { maxLength: 4 }).map((s) => s.sort((a, b) => a - b)),
      reads: fc.array(fc.record({ s: fc.integer({ min: -100, max: 3000 }), point: fc.constantFrom("p1", "p2") }), { maxLength: 4 }),
      course: fc.constantFrom("c1", "c2"),
    });
    fc.assert(
      fc.property(fc.array(racerArb, { maxLength: 12 }), fc.integer({ min: 0, max: 4000 }), (drawn, nowS) => {
        const racers = drawn.map((d, i) => onCourse(`r${i}`, d.splits, { status: d.status, course: d.course }));
        const reads = drawn.flatMap((d, i) => d.reads.map((r) => read(`r${i}`, r.s, r.point)));
        const now = at(nowS);
        const list = precallList(racers, reads, now);
        expect(list.length).toBeLessThanOrEqual(PRECALL_MAX);
        expect(new Set(list.map((e) => e.racerId)).size).toBe(list.length);
        for (const [i, entry] of list.entries()) {
          const racer = racers.find((r) => r.racerId === entry.racerId)!;
          expect(["oncourse", "notstarted"]).toContain(racer.status);
          // The precall is theirs, after their start, with no timing point read since.
          expect(reads.some((r) => r.racerId === entry.racerId && r.time === entry.time && r.pointId === entry.pointId)).toBe(true);
          expect(entry.time).toBeGreaterThanOrEqual(racer.start!);
          expect(racer.splits.every((s) => s.time < entry.time)).toBe(true);
          expect(now).toBeLessThanOrEqual(entry.leaveAt);
          if (i > 0) expect(list[i - 1]!.time).toBeGreaterThanOrEqual(entry.time);
          if (entry.expectedAt !== null) expect(entry.expectedAt - entry.time).toBe(entry.typical!.duration);
        }
        // Whoever is on course with a precall read after their last split is listed for at least the grace time.
        for (const racer of racers) {
          const last = racer.splits.at(-1)?.time ?? -Infinity;
          const open = reads.filter((r) => r.racerId === racer.racerId && r.time >= racer.start! && r.time > last).map((r) => r.time);
          const listed = list.some((e) => e.racerId === racer.racerId);
          if (!["oncourse", "notstarted"].includes(racer.status) || open.length === 0) expect(listed).toBe(false);
          else if (now <= Math.min(...open) + PRECALL_GRACE_US) expect(listed).toBe(true);
        }
      }),
      fcParams(),
    );
  });
});
