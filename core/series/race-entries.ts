/**
 * One race's result rows as series entries (decision 0048): each scored result group is a category, a
 * finisher's place is their standard competition rank within the group (equal rank keys share, as the
 * results page ranks them), a DNF, DNS or DSQ is a status, and a racer still out or not started has no
 * result yet.
 */
import { compareKeys } from "../timing/rank";
import { foldName, racerIdentity, sameIdentity } from "./identity";
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

/** An entry as stored (decision 0064): identity, name, club, category, then the place and time or the status. */
export type PackedEntry = [string, string, string | null, string, number | string, number | null];

/** A race's entries in a compact form for D1 (a series of 5,000 racers stores each race's in well under a row's 2 MB). */
export function packEntries(entries: readonly RaceEntry[]): PackedEntry[] {
  return entries.map((e) => [
    e.identity,
    e.name,
    e.club,
    e.category,
    e.outcome.kind === "placed" ? e.outcome.place : e.outcome.status,
    e.outcome.kind === "placed" ? e.outcome.time : null,
  ]);
}

/** The entries `packEntries` stored; a row that is not one is skipped, as a stale cache would be recomputed. */
export function unpackEntries(packed: unknown): RaceEntry[] | null {
  if (!Array.isArray(packed)) return null;
  const entries: RaceEntry[] = [];
  for (const p of packed as unknown[]) {
    if (!Array.isArray(p) || p.length !== 6) return null;
    const [identity, name, club, category, at, time] = p as PackedEntry;
    const outcome: RaceEntry["outcome"] =
      typeof at === "number" ? { kind: "placed", place: at, time } : { kind: "status", status: at as "dnf" | "dns" | "dsq" };
    entries.push({ identity: sameIdentity(identity), name, club, category, outcome });
  }
  return entries;
}
