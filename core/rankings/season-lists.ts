/**
 * A ranking scheme's lists, season by season (issue 27, decision 0054): each race's competitions scored by the
 * FIS method (core/rankings/fis-points.ts), each starter's points before a race taken from the list in force
 * (this season's list so far, else the last earlier season's), and a season's list of each racer's best N
 * results. Pure: the caller reads the races' results.
 */
import { rankingList, resultPoints, type FisConfig, type ListConfig } from "./fis-points";
import { tableResultPoints } from "./table-points";

/** How a competition's finishers earn points: the FIS method, or a points table by place (decision 0064). */
export type RankingScoring = { readonly kind: "fis"; readonly fis: FisConfig } | { readonly kind: "table"; readonly table: readonly number[] };

export interface RankingFinisher {
  identity: string;
  name: string;
  club: string | null;
  /** Seconds (any unit, the same within a competition). */
  time: number;
}

/** One scored competition of a race (a result group): its finishers and everyone who started (finished, DNF, DSQ). */
export interface Competition {
  finishers: readonly RankingFinisher[];
  starters: readonly string[];
}

export interface RankingRace {
  id: string;
  name: string;
  /** The race's start, for the order races are scored in. */
  order: number;
  competitions: readonly Competition[];
}

export interface RankingSeason {
  label: string;
  races: readonly RankingRace[];
}

export interface RacerResult {
  race: string;
  points: number;
  /** Among the racer's best N, so part of the list's points. */
  counted: boolean;
}

export interface RankedRacer {
  rank: number;
  identity: string;
  name: string;
  club: string | null;
  points: number;
  /** Listed at their single result plus 20% (FIS's rule, when the scheme applies it). */
  plus20: boolean;
  results: RacerResult[];
}

export interface SeasonList {
  label: string;
  races: { id: string; name: string }[];
  racers: RankedRacer[];
}

/** Every season's list, in the order given; a season's starters count the points of the list in force before each race. */
export function seasonLists(seasons: readonly RankingSeason[], scoring: FisConfig | RankingScoring, list: ListConfig): SeasonList[] {
  const method: RankingScoring = "kind" in scoring ? scoring : { kind: "fis", fis: scoring };
  // A table's points do not depend on the list in force; its list ranks the most points first.
  const listed: ListConfig = method.kind === "table" ? { ...list, higherFirst: true } : list;
  let base = new Map<string, number>();
  return seasons.map((season) => {
    const races = [...season.races].sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
    const results: { racerId: string; points: number; race: string; order: number }[] = [];
    const who = new Map<string, { name: string; club: string | null }>();
    for (const [index, race] of races.entries()) {
      const inForce = new Map(base);
      for (const r of rankingList(results, listed)) inForce.set(r.racerId, r.points);
      const pointsOf = (identity: string) => inForce.get(identity) ?? null;
      const best = new Map<string, number>();
      for (const competition of race.competitions) {
        const finishers = competition.finishers.map((f) => ({ racerId: f.identity, time: f.time, rankingPoints: pointsOf(f.identity) }));
        for (const f of competition.finishers) who.set(f.identity, { name: f.name, club: f.club });
        const scored =
          method.kind === "fis" ? resultPoints(finishers, competition.starters.map(pointsOf), method.fis) : tableResultPoints(finishers, method.table);
        // One race, one result: the better of a racer's two groups (fewer FIS points, more table points).
        for (const r of scored)
          best.set(
            r.racerId,
            method.kind === "fis" ? Math.min(best.get(r.racerId) ?? Infinity, r.points) : Math.max(best.get(r.racerId) ?? -Infinity, r.points),
          );
      }
      for (const [racerId, points] of best) results.push({ racerId, points, race: race.id, order: index });
    }
    const racers = rankedOf(results, listed, who);
    base = new Map(base);
    for (const r of racers) base.set(r.identity, r.points);
    return { label: season.label, races: races.map((r) => ({ id: r.id, name: r.name })), racers };
  });
}

function rankedOf(
  results: readonly { racerId: string; points: number; race: string; order: number }[],
  list: ListConfig,
  who: ReadonlyMap<string, { name: string; club: string | null }>,
): RankedRacer[] {
  const ranked = rankingList(results, list);
  let rank = 0;
  return ranked.map((r, i) => {
    if (i === 0 || ranked[i - 1]!.points !== r.points) rank = i + 1;
    const mine = results.filter((x) => x.racerId === r.racerId);
    // The same order rankingList counts by (lower points first), the earlier race first among equals.
    const counted = new Set([...mine].sort((a, b) => (list.higherFirst ? b.points - a.points : a.points - b.points) || a.order - b.order).slice(0, r.counted));
    const person = who.get(r.racerId) ?? { name: r.racerId, club: null };
    return {
      rank,
      identity: r.racerId,
      name: person.name,
      club: person.club,
      points: r.points,
      plus20: r.plus20,
      results: mine.map((x) => ({ race: x.race, points: x.points, counted: counted.has(x) })),
    };
  });
}

/** A racer's points in force after `season` (an index into `lists`): that season's, else the last earlier season's; null when unranked. */
export function pointsInForce(lists: readonly SeasonList[], season: number): Map<string, number> {
  const points = new Map<string, number>();
  for (const list of lists.slice(0, season + 1)) for (const r of list.racers) points.set(r.identity, r.points);
  return points;
}
