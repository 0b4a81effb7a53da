/**
 * One race's result rows as series entries (decision 0048): each scored result group is a category, a
 * finisher's place is their standard competition rank within the group (equal rank keys share, as the
 * results page ranks them), a DNF, DNS or DSQ is a status, and a racer still out or not started has no
 * result yet.
 */
import { compareKeys } from "../timing/rank";
import { foldName, racerIdentity } from "./identity";
import type { RaceEntry } from "./standings";

export interface ResultRowLike {
  readonly status: string;
  readonly rankKey: readonly number[] | null;
  readonly time: number | null;
  readonly name: string;
  readonly club: string | null;
  readonly groups: readonly string[];
}

export interface ResultGroupLike {
  readonly id: string;
  readonly name: string;
}

const STATUSES = new Set(["dnf", "dns", "dsq"]);

/** `categories` are group names to score (folded); empty scores every group, under its own name. */
export function raceEntries(groups: readonly ResultGroupLike[], rows: readonly ResultRowLike[], categories: readonly string[]): RaceEntry[] {
  const wanted = new Map(categories.map((c) => [foldName(c), c]));
  const entries: RaceEntry[] = [];
  for (const group of groups) {
    const category = wanted.size === 0 ? group.name : wanted.get(foldName(group.name));
    if (category === undefined) continue;
    const members = rows.filter((row) => row.groups.includes(group.id));
    const ranked = members.filter((r) => r.status === "finished" && r.rankKey !== null && r.time !== null).sort((a, b) => compareKeys(a.rankKey!, b.rankKey!));
    let place = 0;
    ranked.forEach((row, i) => {
      if (i === 0 || compareKeys(ranked[i - 1]!.rankKey!, row.rankKey!) !== 0) place = i + 1;
      // Times are microseconds on the wire; a formula reads seconds.
      entries.push({ identity: racerIdentity(row), name: row.name, club: row.club, category, outcome: { kind: "placed", place, time: row.time! / 1_000_000 } });
    });
    for (const row of members) {
      if (!STATUSES.has(row.status)) continue;
      entries.push({
        identity: racerIdentity(row),
        name: row.name,
        club: row.club,
        category,
        outcome: { kind: "status", status: row.status as "dnf" | "dns" | "dsq" },
      });
    }
  }
  return entries;
}
