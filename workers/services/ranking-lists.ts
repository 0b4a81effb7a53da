/**
 * Ranking schemes' lists (issue 27, decision 0054), computed when read from the member races' current results
 * the way series standings are (decision 0048): each RaceRoom says which version of a format's results it
 * holds, the lists cached in D1 carry a digest of those versions and the config, and are recomputed when any
 * of them moved. No nightly job; nothing held only in memory.
 */
import { and, asc, eq } from "drizzle-orm";
import { rankingIdentity } from "../../core/rankings/identity";
import { raceCompetitions } from "../../core/rankings/race-competitions";
import { pointsInForce, seasonLists, type RankingRace, type SeasonList } from "../../core/rankings/season-lists";
import { rankingLists, rankingSchemes, type Db } from "../../schema/d1";
import { birthYearOf } from "../../schema/race/racer";
import { listConfigOf, rankingConfigOf, scoringOf, type RankingConfig } from "../../schema/wire/ranking-config";
import { getClubRaceCatalogues } from "./race-access";
import { digest, memberOf, type Member } from "./series-standings";
import { everyRacer } from "./race-racers";

export interface SchemeRecord {
  id: string;
  clubId: string;
  siteId: string | null;
  name: string;
  sport: string | null;
  season: string | null;
  method: string;
  isPublic: boolean;
  config: unknown;
}

const MAX_CACHED_BYTES = 1_900_000;
/** Part of the cache key: a change to how lists are computed or shaped makes every cached one stale. */
const LISTS_VERSION = 2;

/** A scheme's columns as lists read them (the public pages add the club's name). */
export const schemeColumns = {
  id: rankingSchemes.id,
  clubId: rankingSchemes.clubId,
  siteId: rankingSchemes.siteId,
  name: rankingSchemes.name,
  sport: rankingSchemes.sport,
  season: rankingSchemes.season,
  method: rankingSchemes.method,
  isPublic: rankingSchemes.isPublic,
  config: rankingSchemes.config,
};

export async function schemesOfClub(db: Db, clubId: string): Promise<SchemeRecord[]> {
  return db.select(schemeColumns).from(rankingSchemes).where(eq(rankingSchemes.clubId, clubId)).orderBy(asc(rankingSchemes.name)).limit(500);
}

/** A scheme of the club by id; null when absent or another club's. */
export async function findScheme(db: Db, clubId: string, id: string | null | undefined): Promise<SchemeRecord | null> {
  if (!id || id.length > 64) return null;
  const [row] = await db
    .select(schemeColumns)
    .from(rankingSchemes)
    .where(and(eq(rankingSchemes.id, id), eq(rankingSchemes.clubId, clubId)))
    .limit(1);
  return row ?? null;
}

/** The season shown and seeded from: the scheme's current season when it names one of its seasons, else the last. */
export function currentSeasonIndex(scheme: Pick<SchemeRecord, "season">, config: RankingConfig): number {
  const named = scheme.season ? config.seasons.findIndex((s) => s.label.toLowerCase() === scheme.season!.toLowerCase()) : -1;
  return named >= 0 ? named : config.seasons.length - 1;
}

interface SeasonMembers {
  label: string;
  members: Member[];
}

async function membersOf(env: Env, db: Db, scheme: SchemeRecord, config: RankingConfig): Promise<SeasonMembers[]> {
  const ids = config.seasons.flatMap((s) => s.races.map((r) => r.race));
  const byId = new Map((await getClubRaceCatalogues(db, scheme.clubId, [...new Set(ids)])).map((c) => [c.id, c]));
  // A race deleted since the config was saved drops out of the lists.
  return Promise.all(
    config.seasons.map(async (season) => ({
      label: season.label,
      members: await Promise.all(season.races.flatMap((r) => (byId.has(r.race) ? [memberOf(env, byId.get(r.race)!, r.format, 1)] : []))),
    })),
  );
}

async function raceOf(member: Member, categories: readonly string[]): Promise<RankingRace> {
  const base = { id: member.race.id, name: member.race.name, order: member.race.startTime };
  if (!member.formatId) return { ...base, competitions: [] };
  const [snapshot, racers] = await Promise.all([member.room.snapshot(member.formatId), everyRacer(member.room)]);
  if (!snapshot) return { ...base, competitions: [] };
  const byId = new Map(racers.map((r) => [r.id, r.data]));
  const identityOf = (row: { racerId: string; name: string; club: string | null }) => {
    const d = byId.get(row.racerId);
    return rankingIdentity({
      licence: d ? d.ccc_licence || d.licence : null,
      person: d?.person ?? null,
      name: row.name,
      birthYear: d ? birthYearOf(d) : null,
      club: row.club,
    });
  };
  return { ...base, competitions: raceCompetitions(snapshot.groups, snapshot.rows, categories, identityOf) };
}

/** Every season's list of the scheme, the cached one while every member race's results are as they were. */
export async function schemeLists(env: Env, db: Db, scheme: SchemeRecord): Promise<SeasonList[]> {
  const config = rankingConfigOf(scheme.config);
  const seasons = await membersOf(env, db, scheme, config);
  const sourceKey = await digest(
    JSON.stringify({
      version: LISTS_VERSION,
      method: scheme.method,
      config,
      seasons: seasons.map((s) => [s.label, s.members.map((m) => [m.race.id, m.race.name, m.race.startTime, m.formatId, m.version])]),
    }),
  );
  const where = and(eq(rankingLists.schemeId, scheme.id), eq(rankingLists.clubId, scheme.clubId));
  const [cached] = await db.select().from(rankingLists).where(where).limit(1);
  if (cached && cached.sourceKey === sourceKey) return cached.lists as SeasonList[];
  const input = await Promise.all(seasons.map(async (s) => ({ label: s.label, races: await Promise.all(s.members.map((m) => raceOf(m, config.categories))) })));
  const lists = seasonLists(input, scoringOf(scheme.method, config), listConfigOf(config));
  // D1 keeps rows under 2 MB: lists too large to cache are computed at each read rather than failing it.
  if (new TextEncoder().encode(JSON.stringify(lists)).length > MAX_CACHED_BYTES) return lists;
  const row = { sourceKey, lists, computedAt: Date.now() };
  // Two readers racing write the same lists for the same key; the later write wins harmlessly.
  await db
    .insert(rankingLists)
    .values({ schemeId: scheme.id, clubId: scheme.clubId, ...row })
    .onConflictDoUpdate({ target: rankingLists.schemeId, set: row });
  return lists;
}

/**
 * Each racer's points in force for seeding: the scheme's current season's list, else an earlier season's, and
 * which way they seed: a points table ranks the most points first (decision 0068; it once gave the list's rank,
 * which the start list then showed as the racer's points).
 */
export async function seedingPoints(env: Env, db: Db, scheme: SchemeRecord): Promise<{ points: Map<string, number>; higherFirst: boolean }> {
  const config = rankingConfigOf(scheme.config);
  const lists = await schemeLists(env, db, scheme);
  return { points: pointsInForce(lists, currentSeasonIndex(scheme, config)), higherFirst: scheme.method === "points_table" };
}
