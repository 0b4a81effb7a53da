import { legShownTime } from "./leg-time";
import { describe, expect, it } from "vitest";
import type { RacerStatus } from "./model";
import {
  DEFAULT_RELAY_MEMBER_COUNT,
  DEFAULT_TEAM_LAP_TIME_DISPLAY,
  type RelayEntry,
  type RelayMember,
  relayMembersOf,
  teamAndLegOf,
  teamResults,
} from "./relay";
import { at, seconds } from "./test-races";

function member(
  racerId: string,
  team: string | null,
  leg: number | null,
  finish: number | null,
  extra: { start?: number; status?: RacerStatus } = {},
): RelayMember {
  return {
    racerId,
    team,
    leg,
    start: extra.start === undefined ? null : at(extra.start),
    finish: finish === null ? null : at(finish),
    status: extra.status ?? (finish === null ? "notstarted" : "finished"),
  };
}

/**
 * A 4-leg relay from a mass start at 0:00 (only leg 1 has a start; the others take over at the handover):
 *   Nordic   legs finish 20:00, 40:30.5, 1:00:00, 1:20:50.25
 *   Alpine   legs finish 19:50, 40:00, 1:00:50, 1:20:00; leg 3 tagged late at 40:05 (its own start)
 *   Coastal  leg 1 finishes 20:50, leg 2 DNF, legs 3 and 4 never start
 *   Valley   only 3 members, finishing 21:40, 43:20, 1:05:00
 * Members come in mixed order, as a racer list would give them.
 */
const relay: RelayMember[] = [
  member("n3", "Nordic", 3, 3600),
  member("a1", "Alpine", 1, 1190, { start: 0 }),
  member("n1", "Nordic", 1, 1200, { start: 0 }),
  member("c2", "Coastal", 2, null, { status: "dnf" }),
  member("n4", "Nordic", 4, 4850.25),
  member("a3", "Alpine", 3, 3650, { start: 2405 }),
  member("v1", "Valley", 1, 1300, { start: 0 }),
  member("n2", "Nordic", 2, 2430.5),
  member("a2", "Alpine", 2, 2400),
  member("c1", "Coastal", 1, 1250, { start: 0 }),
  member("a4", "Alpine", 4, 4800),
  member("v2", "Valley", 2, 2600),
  member("c3", "Coastal", 3, null),
  member("v3", "Valley", 3, 3900),
  member("c4", "Coastal", 4, null),
  member("solo", null, 1, 900, { start: 0 }),
];

describe("teamResults on a 4-leg relay", () => {
  const results = teamResults(relay, { memberCount: 4 });
  const team = (name: string) => results.find((r) => r.team === name);

  it("ranks Alpine (1:20:00), Nordic (1:20:50.25), then Valley (3 legs) and Coastal (1 leg); a racer with no team is left out", () => {
    expect(results.map((r) => [r.team, r.rank, r.status, r.legsCompleted])).toEqual([
      ["Alpine", 1, "finished", 4],
      ["Nordic", 2, "finished", 4],
      ["Valley", null, "dnf", 3],
      ["Coastal", null, "dnf", 1],
    ]);
  });

  it("Nordic: legs 20:00, 20:30.5, 19:29.5, 20:50.25 from each handover; team 1:20:50.25", () => {
    const nordic = team("Nordic");
    expect(nordic?.legs.map((leg) => [leg.racerId, leg.time])).toEqual([
      ["n1", seconds(1200)],
      ["n2", seconds(1230.5)],
      ["n3", seconds(1169.5)],
      ["n4", seconds(1250.25)],
    ]);
    expect(nordic?.time).toBe(seconds(4850.25));
  });

  it("Alpine: leg 3 is timed from its own start 40:05, so 20:45; the team still from the first leg's start, 1:20:00", () => {
    const alpine = team("Alpine");
    expect(alpine?.legs.map((leg) => leg.time)).toEqual([seconds(1190), seconds(1210), seconds(1245), seconds(1150)]);
    expect(alpine?.legs[2]?.start).toBe(at(2405));
    expect(alpine?.time).toBe(seconds(4800));
  });

  it("Coastal, with a DNF on leg 2: leg 1 timed, nothing handed over after, no team time", () => {
    const coastal = team("Coastal");
    expect(coastal?.legs.map((leg) => [leg.racerId, leg.start, leg.time, leg.status])).toEqual([
      ["c1", at(0), seconds(1250), "finished"],
      ["c2", at(1250), null, "dnf"],
      ["c3", null, null, "notstarted"],
      ["c4", null, null, "notstarted"],
    ]);
    expect(coastal).toMatchObject({ time: null, status: "dnf", rank: null });
  });

  it("Valley, short of a member: all three legs timed, but not finished", () => {
    const valley = team("Valley");
    expect(valley?.legs.map((leg) => leg.time)).toEqual([seconds(1300), seconds(1300), seconds(1300)]);
    expect(valley).toMatchObject({ time: null, status: "dnf", legsCompleted: 3 });
  });
});

describe("teamResults statuses and order", () => {
  it("makes a team with a dsq member dsq, ranked after the rest and before dns", () => {
    const results = teamResults(
      [
        member("x1", "X", 1, 1000, { start: 0 }),
        member("x2", "X", 2, 2000, { status: "dsq" }),
        member("y1", "Y", 1, null, { status: "dns" }),
        member("y2", "Y", 2, null),
        member("z1", "Z", 1, null, { start: 0, status: "oncourse" }),
        member("z2", "Z", 2, null),
      ],
      { memberCount: 2 },
    );
    expect(results.map((r) => [r.team, r.status])).toEqual([
      ["Z", "oncourse"],
      ["X", "dsq"],
      ["Y", "dns"],
    ]);
  });

  it("orders unfinished teams with equal legs by the earlier handover, and shares a rank on equal times", () => {
    const results = teamResults(
      [
        member("p1", "P", 1, 1000, { start: 0 }),
        member("p2", "P", 2, 2000),
        member("q1", "Q", 1, 900, { start: 0 }),
        member("q2", "Q", 2, 2000),
        member("r1", "R", 1, 1100, { start: 0 }),
        member("r2", "R", 2, null, { status: "oncourse" }),
        member("s1", "S", 1, 1050, { start: 0 }),
        member("s2", "S", 2, null, { status: "oncourse" }),
      ],
      { memberCount: 2 },
    );
    expect(results.map((r) => [r.team, r.rank])).toEqual([
      ["P", 1],
      ["Q", 1],
      ["S", null],
      ["R", null],
    ]);
  });

  it("puts members with no leg number after the numbered legs, in input order", () => {
    const [result] = teamResults([member("b", "T", null, 2000), member("a", "T", 1, 1000, { start: 0 })], { memberCount: 2 });
    expect(result?.legs.map((leg) => leg.racerId)).toEqual(["a", "b"]);
    expect(result?.time).toBe(seconds(2000));
  });
});

describe("teamAndLegOf", () => {
  const fields = { teamField: "team", teamOrder: "leg" };

  it("reads the team and leg from the racer's fields", () => {
    expect(teamAndLegOf({ team: " Nordic ", leg: "2" }, fields)).toEqual({ team: "Nordic", leg: 2 });
    expect(teamAndLegOf({ team: 7, leg: 3 }, fields)).toEqual({ team: "7", leg: 3 });
  });

  it("gives none for a blank team or a leg that is not a whole number from 1", () => {
    expect(teamAndLegOf({ team: "", leg: "0" }, fields)).toEqual({ team: null, leg: null });
    expect(teamAndLegOf({ leg: "1.5" }, fields)).toEqual({ team: null, leg: null });
    expect(teamAndLegOf({ team: "A", leg: "" }, fields)).toEqual({ team: "A", leg: null });
  });
});

describe("legShownTime", () => {
  const [nordic] = teamResults(relay, { memberCount: 4 }).filter((r) => r.team === "Nordic");
  const leg3 = nordic?.legs[2];

  it("shows the racer's own leg by default, the team's running time with team_elapsed", () => {
    expect(DEFAULT_TEAM_LAP_TIME_DISPLAY).toBe("racer_at_lap_finish");
    if (leg3 === undefined) throw new Error("Nordic has a leg 3");
    expect(legShownTime(leg3, at(0), "racer_at_lap_finish")).toBe(seconds(1169.5));
    expect(legShownTime(leg3, at(0), "team_elapsed")).toBe(seconds(3600));
    expect(legShownTime(leg3, null, "team_elapsed")).toBeNull();
  });
});

describe("relayMembersOf: racers' results as the legs of a relay", () => {
  /** Every racer is on the gun at 0:00 (the engine gives each the race start); only leg 1 really starts then. */
  function entry(
    racerId: string,
    team: string | null,
    bib: number,
    leg: number | null,
    finish: number | null,
    extra: { handover?: number; status?: RacerStatus } = {},
  ): RelayEntry {
    return {
      racerId,
      team,
      leg,
      bib,
      start: at(0),
      finish: finish === null ? null : at(finish),
      handover: extra.handover === undefined ? null : at(extra.handover),
      status: extra.status ?? (finish === null ? "oncourse" : "finished"),
    };
  }

  it("defaults to 4 racers a team (the spec's relay default)", () => {
    expect(DEFAULT_RELAY_MEMBER_COUNT).toBe(4);
  });

  it("with no leg field, runs a team's legs in bib order; only the first leg keeps its start", () => {
    const members = relayMembersOf([entry("b", "Nordic", 102, null, 2400), entry("a", "Nordic", 101, null, 1200), entry("c", "Nordic", 103, null, null)], 3);
    expect(members.map((m) => [m.racerId, m.start])).toEqual([
      ["a", at(0)],
      ["b", null],
      ["c", null],
    ]);
    const [nordic] = teamResults(members, { memberCount: 3 });
    expect(nordic?.legs.map((leg) => leg.time)).toEqual([seconds(1200), seconds(1200), null]);
    expect(nordic?.status).toBe("oncourse");
  });

  it("ends a handing-over leg at its transition-point read, even while the racer's own course is unfinished; the last leg ends at the finish", () => {
    // 4-leg relay, transition point read at each exchange; leg 4 also passes it, 30 s before the finish.
    const members = relayMembersOf(
      [
        entry("l1", "Alpine", 1, 1, null, { handover: 1190 }),
        entry("l2", "Alpine", 2, 2, null, { handover: 2400 }),
        entry("l3", "Alpine", 3, 3, 3660, { handover: 3650 }),
        entry("l4", "Alpine", 4, 4, 4800, { handover: 4770 }),
      ],
      4,
    );
    const [alpine] = teamResults(members, { memberCount: 4 });
    expect(alpine?.legs.map((leg) => leg.time)).toEqual([seconds(1190), seconds(1210), seconds(1250), seconds(1150)]);
    expect(alpine).toMatchObject({ status: "finished", time: seconds(4800), rank: 1 });
  });

  it("does not hand over for a racer who is out: a DNF with a transition read stays DNF", () => {
    const [out] = relayMembersOf([entry("x", "X", 1, 1, null, { handover: 900, status: "dnf" })], 2);
    expect(out).toMatchObject({ status: "dnf", finish: null });
  });

  it("leaves a racer with no team out of every team", () => {
    expect(teamResults(relayMembersOf([entry("solo", null, 9, 1, 900), entry("t1", " T ", 1, 1, 1000)], 1), { memberCount: 1 }).map((t) => t.team)).toEqual([
      "T",
    ]);
  });
});
