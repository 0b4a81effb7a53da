import { describe, expect, it } from "vitest";
import type { AnnouncerView, FinisherView, LeaderChangeView, PrecallView } from "../../schema/wire/announcer-view";
import { dueText, keyAction, latestOf, leaderSentence, leadersOf, ordinal, placeText, precallOf, stepGroup } from "./announcer-screen";

const S = 1_000_000;
const racer = (bib: number) => ({ racerId: `r${bib}`, bib, name: `Racer ${bib}`, club: null });
const finisher = (bib: number, groupId: string, finish: number, rank: number): FinisherView => ({
  ...racer(bib),
  groupId,
  rank,
  time: finish,
  sameTime: false,
  diff: null,
  finish,
});
const change = (bib: number, groupId: string, time: number): LeaderChangeView => ({ ...racer(bib), groupId, time, at: "Lap 2", elapsed: time, previous: null });
const precall = (bib: number, groups: string[], leaveAt: number): PrecallView => ({
  ...racer(bib),
  point: "Precall",
  time: 0,
  next: "Finish",
  expectedAt: null,
  expectedElapsed: null,
  typical: null,
  leaveAt,
  groups,
  places: [],
});

function view(parts: Partial<AnnouncerView>): AnnouncerView {
  return {
    formatId: "f",
    name: "Announcer",
    version: "1",
    displayPrecision: 1,
    sameTimeDisplay: "s/t",
    now: 0,
    groups: [
      { id: "all", name: "Overall" },
      { id: "w", name: "Women" },
    ],
    precallPoints: ["Precall"],
    precall: [],
    latest: [],
    leaders: [],
    ...parts,
  };
}

describe("the announcer screen", () => {
  it("maps 1, 2, 3, G and F to panes, groups and full screen, and leaves the browser's shortcuts alone", () => {
    const plain = { ctrlKey: false, altKey: false, metaKey: false };
    expect(keyAction({ ...plain, key: "2" })).toEqual({ kind: "pane", pane: "latest" });
    expect(keyAction({ ...plain, key: "g" })).toEqual({ kind: "group", step: 1 });
    expect(keyAction({ ...plain, key: "G" })).toEqual({ kind: "group", step: -1 });
    expect(keyAction({ ...plain, key: "f" })).toEqual({ kind: "fullscreen" });
    expect(keyAction({ ...plain, key: "f", ctrlKey: true })).toBeNull();
    expect(keyAction({ ...plain, key: "x" })).toBeNull();
  });

  it("steps through All groups and each group, round and round", () => {
    const groups = [{ id: "a" }, { id: "b" }];
    expect([null, "a", "b"].map((g) => stepGroup(groups, g, 1))).toEqual(["a", "b", null]);
    expect(stepGroup(groups, null, -1)).toBe("b");
    expect(stepGroup(groups, "gone", 1)).toBe("a");
  });

  it("shows every group's latest finishers once each, newest first, or one group's", () => {
    const v = view({ latest: [finisher(1, "all", 100, 1), finisher(2, "all", 90, 2), finisher(1, "w", 100, 1), finisher(3, "w", 95, 1)] });
    expect(latestOf(v, null).map((f) => [f.bib, f.groupId])).toEqual([
      [1, "all"],
      [3, "w"],
      [2, "all"],
    ]);
    expect(latestOf(v, "w").map((f) => f.bib)).toEqual([1, 3]);
  });

  it("merges leader changes newest first, and drops precall racers past their time or outside the group", () => {
    const v = view({ leaders: [change(1, "all", 10), change(2, "w", 20)], precall: [precall(5, ["all", "w"], 100), precall(6, ["all"], 50)] });
    expect(leadersOf(v, null).map((c) => c.bib)).toEqual([2, 1]);
    expect(precallOf(v, null, 60).map((p) => p.bib)).toEqual([5]);
    expect(precallOf(v, "w", 0).map((p) => p.bib)).toEqual([5]);
  });

  it("says it as an announcer would", () => {
    expect(leaderSentence(change(12, "w", 0), "Women 10 km")).toBe("Bib 12 Racer 12 takes the lead in Women 10 km at Lap 2");
    expect(placeText({ groupId: "w", rank: 3, of: 41, at: "Lap 2" })).toBe("3rd of 41 at Lap 2");
    expect([1, 2, 3, 4, 11, 12, 13, 21, 102, 111].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd", "111th"]);
    expect([dueText(null, 0), dueText(12 * S, 0), dueText(65 * S, 0), dueText(0, 0), dueText(0, 8 * S)]).toEqual([
      "",
      "in 12 s",
      "in 1:05",
      "due now",
      "8 s late",
    ]);
  });
});
