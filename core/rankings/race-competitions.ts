/**
 * One race's results as ranking competitions (decision 0054): each scored result group is a competition (the
 * FIS penalty is a competition's, so men's and women's groups are scored apart); its finishers are the
 * finished rows with a time, its starters those who started (finished, DNF or DSQ). DNS, DNF and DSQ score
 * nothing; a racer not started or still out has no result yet.
 */
import { foldName } from "../series/identity";
import type { Competition } from "./season-lists";

export interface RankingRowLike {
  readonly racerId: string;
  readonly status: string;
  readonly time: number | null;
  readonly name: string;
  readonly club: string | null;
  readonly groups: readonly string[];
}

const STARTED = new Set(["finished", "dnf", "dsq"]);

/** `categories` are group names to score (folded); empty scores every group. Times are microseconds on the wire. */
export function raceCompetitions(
  groups: readonly { id: string; name: string }[],
  rows: readonly RankingRowLike[],
  categories: readonly string[],
  identityOf: (row: RankingRowLike) => string,
): Competition[] {
  const wanted = new Set(categories.map(foldName));
  return groups
    .filter((g) => wanted.size === 0 || wanted.has(foldName(g.name)))
    .map((group) => {
      const members = rows.filter((row) => row.groups.includes(group.id) && STARTED.has(row.status));
      return {
        finishers: members
          .filter((row) => row.status === "finished" && row.time !== null && row.time > 0)
          .map((row) => ({ identity: identityOf(row), name: row.name, club: row.club, time: row.time! / 1_000_000 })),
        starters: members.map(identityOf),
      };
    })
    .filter((c) => c.starters.length > 0);
}
