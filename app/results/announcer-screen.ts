/**
 * What the announcer screen shows of its view (decision 0045), apart from React: the panes and their keys,
 * the lists of one group or of all, and the words read out. Pure, so it is unit-tested and costs the page little.
 */
import { formatRaceTime } from "../../core/time/format";
import type { AnnouncerView, FinisherView, LeaderChangeView, PrecallView, SplitPlace } from "../../schema/wire/announcer-view";

export const PANES = ["precall", "latest", "leaders"] as const;
export type Pane = (typeof PANES)[number];
export const PANE_LABELS: Record<Pane, string> = { precall: "Precall", latest: "Latest finishers", leaders: "Leader changes" };

/** The keys, in the order the screen lists them. */
export const KEYS: readonly { key: string; label: string }[] = [
  { key: "1", label: PANE_LABELS.precall },
  { key: "2", label: PANE_LABELS.latest },
  { key: "3", label: PANE_LABELS.leaders },
  { key: "G", label: "Next group" },
  { key: "F", label: "Full screen" },
];

export type KeyAction = { kind: "pane"; pane: Pane } | { kind: "group"; step: 1 | -1 } | { kind: "fullscreen" };

/** A key press's action; none with Ctrl, Alt or Meta held (the browser's own shortcuts), Shift+G goes back a group. */
export function keyAction(event: { key: string; ctrlKey: boolean; altKey: boolean; metaKey: boolean }): KeyAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  const index = ["1", "2", "3"].indexOf(event.key);
  if (index >= 0) return { kind: "pane", pane: PANES[index]! };
  if (event.key === "g") return { kind: "group", step: 1 };
  if (event.key === "G") return { kind: "group", step: -1 };
  if (event.key === "f" || event.key === "F") return { kind: "fullscreen" };
  return null;
}

/** The group after (or before) `current` in the list All groups, then each group, round and round. */
export function stepGroup(groups: readonly { id: string }[], current: string | null, step: 1 | -1): string | null {
  const order = [null, ...groups.map((g) => g.id)];
  const at = Math.max(0, order.indexOf(current));
  return order[(at + step + order.length) % order.length]!;
}

/** Racers on the precall list in a group (or every group) who have not timed out by `nowUs`, newest first. */
export function precallOf(view: AnnouncerView, groupId: string | null, nowUs: number): PrecallView[] {
  return view.precall.filter((p) => p.leaveAt >= nowUs && (groupId === null || p.groups.includes(groupId)));
}

/** A group's latest finishers, or every group's with each racer once (their first group's place), newest first. */
export function latestOf(view: AnnouncerView, groupId: string | null, count = 10): FinisherView[] {
  if (groupId !== null) return view.latest.filter((f) => f.groupId === groupId).slice(0, count);
  // Stable: at the same finish a racer's first group (format order) comes first, and is the one kept.
  const newest = [...view.latest].sort((a, b) => b.finish - a.finish);
  const seen = new Set<string>();
  return newest.filter((f) => !seen.has(f.racerId) && seen.add(f.racerId)).slice(0, count);
}

/** A group's leader changes, or every group's, newest first. */
export function leadersOf(view: AnnouncerView, groupId: string | null, count = 20): LeaderChangeView[] {
  const changes = groupId === null ? [...view.leaders].sort((a, b) => b.time - a.time) : view.leaders.filter((c) => c.groupId === groupId);
  return changes.slice(0, count);
}

/** The place a precall racer holds in the group shown (their first group when all are shown). */
export function placeIn(entry: PrecallView, groupId: string | null): SplitPlace | null {
  return entry.places.find((p) => groupId === null || p.groupId === groupId) ?? null;
}

const bibAndName = (racer: { bib: number | null; name: string }) => (racer.bib === null ? racer.name : `Bib ${racer.bib} ${racer.name}`);

/** "Bib 12 Anna Berg takes the lead in Women 10 km at Lap 2". */
export function leaderSentence(change: LeaderChangeView, groupName: string): string {
  return `${bibAndName(change)} takes the lead in ${groupName} at ${change.at}`;
}

/** "3rd of 41 at Lap 2". */
export function placeText(place: SplitPlace): string {
  return `${ordinal(place.rank)} of ${place.of} at ${place.at}`;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** When a precall racer is due: "in 12 s", "in 1:05", "due now", "8 s late"; "" with no estimate. */
export function dueText(expectedAt: number | null, nowUs: number): string {
  if (expectedAt === null) return "";
  const seconds = Math.round((expectedAt - nowUs) / 1_000_000);
  if (seconds === 0) return "due now";
  const amount = Math.abs(seconds) < 60 ? `${Math.abs(seconds)} s` : formatRaceTime(Math.abs(seconds) * 1_000_000, 0);
  return seconds > 0 ? `in ${amount}` : `${amount} late`;
}

/** How an expected time was estimated, for the row's title: "Median of 12 racers from the precall point: 42 s". */
export function typicalText(entry: PrecallView): string {
  if (!entry.typical) return "No estimate yet: nobody has gone from this precall point to the next timing point.";
  const racers = entry.typical.samples === 1 ? "1 racer" : `${entry.typical.samples} racers`;
  return `Median of ${racers} from ${entry.point} to the next timing point: ${formatRaceTime(entry.typical.duration, 0)}`;
}
