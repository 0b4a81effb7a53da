/**
 * A points series' standings, computed when read from the member races' current results (decision 0048):
 * each RaceRoom says which version of a format's results it holds; the standings cached in D1 carry a digest
 * of those versions, the config and the points file, and are recomputed when any of them moved. No nightly
 * job and nothing held only in memory: a room evicted between two reads answers with the same stored
 * version, and a crossing that changes a result gives the format a new one.
 */
import { and, eq, inArray } from "drizzle-orm";
import { readPointsFile } from "../../core/series/points-file";
import { packEntries, unpackEntries, type PackedEntry } from "../../core/series/race-entries";
import { computeStandings, type RaceEntry, type SeriesRace, type SeriesStandings } from "../../core/series/standings";
import { pointsSeriesRaceEntries, pointsSeriesStandings, type Db } from "../../schema/d1";
import { pointsSystemOf, raceScaleOf, seriesConfigSchema, type LinkedPointsSystem, type SeriesConfig } from "../../schema/wire/series-config";
import { findPointsSystem } from "./points-series";
import type { Principal } from "../../core/access/policy";
import { IsolateMemo } from "./isolate-memo";
import { getClubRaceCatalogues, maySeeRace, roomStub, type RaceCatalogue } from "./race-access";

export interface SeriesRecord {
  id: string;
  clubId: string;
  config: unknown;
  lastPointsFile: string | null;
}

const MAX_CACHED_BYTES = 1_900_000;
/** Member races whose results are read from their rooms at once (see memberEntries). */
const SNAPSHOTS_AT_ONCE = 4;
/** Part of the cache key: a change to how standings are computed or shaped makes every cached one stale. */
const STANDINGS_VERSION = 1;
/**
 * This isolate's copies of member races' entries and of whole standings, by the same keys as their D1 rows
 * (decision 0080): a series read after one race changed reads that race alone, not the other nineteen's rows
 * from D1 again, and a season too large for a D1 row is not ranked again at every read. About 200 bytes an
 * entry and 100 a cell: room for a season of 20 races × 5,000 racers each.
 */
const entriesMemo = new IsolateMemo<RaceEntry[]>(110_000, (entries) => entries.length);
const standingsMemo = new IsolateMemo<SeriesStandings>(110_000, cellsOf);

/** This isolate's copies dropped, as an isolate that has just started (for tests of what D1 alone gives). */
export function forgetRememberedSeries(): void {
  entriesMemo.clear();
  standingsMemo.clear();
}

type Room = ReturnType<typeof roomStub>;

export interface Member {
  race: RaceCatalogue;
  room: Room;
  formatId: string | null;
  version: string | null;
  scale: number;
}

/** A stored config that no longer parses (written before its schema) scores nothing rather than failing the page. */
export function configOf(series: Pick<SeriesRecord, "config">): SeriesConfig {
  const parsed = seriesConfigSchema.safeParse(series.config);
  return parsed.success ? parsed.data : seriesConfigSchema.parse({});
}

/**
 * The format a member race is scored on: the configured one, else the race's first public format. The room is
 * only read, so it is not opened first: a room never opened has no formats and scores nothing, and twenty
 * `open` calls were half of a series read's room calls.
 */
export async function memberOf(env: Env, race: RaceCatalogue, wanted: string | null, scale: number): Promise<Member> {
  const room = roomStub(env, race.id);
  const scored = await room.scoredFormat(wanted);
  return { race, room, formatId: scored?.formatId ?? null, version: scored?.version ?? null, scale };
}

export async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function membersOf(env: Env, db: Db, series: SeriesRecord, config: SeriesConfig): Promise<Member[]> {
  const catalogues = await getClubRaceCatalogues(
    db,
    series.clubId,
    config.races.map((r) => r.race),
  );
  const byId = new Map(catalogues.map((c) => [c.id, c]));
  // A race deleted since the config was saved drops out of the standings.
  const listed = config.races.flatMap((r) => {
    const race = byId.get(r.race);
    return race ? [{ race, format: r.format, scale: r.scale }] : [];
  });
  return Promise.all(listed.map((m) => memberOf(env, m.race, m.format, m.scale)));
}

/** Where work that need not hold up the answer goes (a request's waitUntil); without one it is awaited. */
export type Later = (work: Promise<unknown>) => void;

/** Runs `work` after the answer when there is somewhere to put it, else now; a failure is logged, not thrown. */
async function afterAnswer(later: Later | undefined, what: string, work: () => Promise<unknown>): Promise<void> {
  if (!later) return void (await work());
  later(work().catch((error: unknown) => console.error(`Series: ${what} not stored`, error)));
}

interface EntriesWrite {
  raceId: string;
  sourceKey: string;
  entries: readonly RaceEntry[];
  /** As the room sent them, when they came from a room. */
  packed: PackedEntry[] | null;
}

/** The entries rows written (races read again) and deleted (races no longer in the series), in one batch. */
async function storeEntries(db: Db, series: SeriesRecord, writes: readonly EntriesWrite[], gone: readonly string[]): Promise<void> {
  const now = Date.now();
  const scope = and(eq(pointsSeriesRaceEntries.seriesId, series.id), eq(pointsSeriesRaceEntries.clubId, series.clubId));
  const upserts = writes.flatMap(({ raceId, sourceKey, entries, packed }) => {
    const stored = packed ?? packEntries(entries);
    // Entries over D1's row size are read from their room at each read instead.
    if (new TextEncoder().encode(JSON.stringify(stored)).length > MAX_CACHED_BYTES) return [];
    return [
      db
        .insert(pointsSeriesRaceEntries)
        .values({ seriesId: series.id, clubId: series.clubId, raceId, sourceKey, entries: stored, computedAt: now })
        .onConflictDoUpdate({
          target: [pointsSeriesRaceEntries.seriesId, pointsSeriesRaceEntries.raceId],
          set: { sourceKey, entries: stored, computedAt: now },
        }),
    ];
  });
  // A race taken out of the series takes its stored entries with it.
  if (gone.length > 0) upserts.push(db.delete(pointsSeriesRaceEntries).where(and(scope, inArray(pointsSeriesRaceEntries.raceId, gone))) as never);
  // Two readers racing store the same entries for the same key; the later write wins harmlessly.
  if (upserts.length > 0) await db.batch(upserts as [(typeof upserts)[number], ...typeof upserts]);
}

/**
 * Each member race's scored entries: the stored ones of a race whose results version is unchanged, else read
 * from its room and stored (decision 0064), so one changed race costs one read of its room, not one per race.
 */
async function memberEntries(db: Db, members: Member[], series: SeriesRecord, config: SeriesConfig, later: Later | undefined): Promise<RaceEntry[][]> {
  const keys = await Promise.all(members.map((m) => digest(JSON.stringify([STANDINGS_VERSION, config.categories, m.race.id, m.formatId, m.version]))));
  const scope = and(eq(pointsSeriesRaceEntries.seriesId, series.id), eq(pointsSeriesRaceEntries.clubId, series.clubId));
  const stored = new Map(
    (await db.select({ raceId: pointsSeriesRaceEntries.raceId, sourceKey: pointsSeriesRaceEntries.sourceKey }).from(pointsSeriesRaceEntries).where(scope)).map(
      (r) => [r.raceId, r.sourceKey],
    ),
  );
  const fresh = members.map((m, i) => stored.get(m.race.id) === keys[i]);
  const memo = members.map((m, i) => {
    const before = stored.get(m.race.id);
    // A race whose results moved on leaves its old entries nothing to answer.
    if (before !== undefined && before !== keys[i]) entriesMemo.delete(before);
    return entriesMemo.get(keys[i]!);
  });
  // Only the rows still current and not in memory are read whole: a stale one's entries would be thrown away.
  const hits = members.filter((_, i) => fresh[i] && !memo[i]).map((m) => m.race.id);
  const cached = new Map<string, unknown>();
  const readStored = async () => {
    for (let from = 0; from < hits.length; from += 50) {
      const rows = await db
        .select({ raceId: pointsSeriesRaceEntries.raceId, entries: pointsSeriesRaceEntries.entries })
        .from(pointsSeriesRaceEntries)
        .where(and(scope, inArray(pointsSeriesRaceEntries.raceId, hits.slice(from, from + 50))));
      for (const row of rows) cached.set(row.raceId, row.entries);
    }
  };
  const writes: EntriesWrite[] = [];
  // Entries in memory but not in this series' D1 row (another series scored the race, or the row was stale).
  memo.forEach((entries, i) => {
    if (entries && !fresh[i]) writes.push({ raceId: members[i]!.race.id, sourceKey: keys[i]!, entries, packed: null });
  });
  const fromRooms = new Map<number, RaceEntry[]>();
  // A few races at a time: a room sends its entries packed (5,000 racers are about 0.5 MB), and twenty read at
  // once held too much of an isolate's 128 MB when they came as whole result rows.
  const readRooms = async (indexes: readonly number[]) => {
    for (let from = 0; from < indexes.length; from += SNAPSHOTS_AT_ONCE)
      await Promise.all(
        indexes.slice(from, from + SNAPSHOTS_AT_ONCE).map(async (i) => {
          const m = members[i]!;
          // RPC's types lose the tuples' shape; unpackEntries checks each one.
          const packed = ((m.formatId ? await m.room.seriesEntries(m.formatId, [...config.categories]) : null) ?? []) as PackedEntry[];
          const read = unpackEntries(packed);
          writes.push({ raceId: m.race.id, sourceKey: keys[i]!, entries: read ?? [], packed: read ? packed : [] });
          fromRooms.set(i, read ?? []);
        }),
      );
  };
  // The changed races are read from their rooms while the unchanged ones come from D1, side by side.
  await Promise.all([readStored(), readRooms(members.flatMap((_, i) => (fresh[i] || memo[i] ? [] : [i])))]);
  const unpacked = members.map((m, i) => memo[i] ?? fromRooms.get(i) ?? unpackEntries(cached.get(m.race.id)));
  // A stored row that no longer reads as entries is read from its room like a changed race.
  await readRooms(unpacked.flatMap((e, i) => (e === null ? [i] : [])));
  const entries = unpacked.map((e, i) => e ?? fromRooms.get(i)!);
  entries.forEach((e, i) => entriesMemo.set(keys[i]!, e));
  const gone = [...stored.keys()].filter((id) => !members.some((m) => m.race.id === id));
  // The rows are only a copy for the next isolate: the page does not wait for them (decision 0081).
  if (writes.length > 0 || gone.length > 0) await afterAnswer(later, "race entries", () => storeEntries(db, series, writes, gone));
  return entries;
}

async function compute(
  db: Db,
  members: Member[],
  series: SeriesRecord,
  config: SeriesConfig,
  linked: LinkedPointsSystem | null,
  later: Later | undefined,
): Promise<SeriesStandings> {
  const entries = await memberEntries(db, members, series, config, later);
  const races: SeriesRace[] = members.map((m, i) => ({
    id: m.race.id,
    name: m.race.name,
    order: m.race.startTime,
    scale: raceScaleOf(m.scale, linked),
    entries: entries[i]!,
  }));
  const carried = series.lastPointsFile ? readPointsFile(series.lastPointsFile) : null;
  return computeStandings(pointsSystemOf(config, linked), races, carried?.ok ? carried.rows : [], config.categories);
}

/** The fewest bytes a result cell takes in the standings' JSON (`{"points":0,"place":1,"status":null,"counted":true}`). */
const MIN_CELL_JSON_BYTES = 50;

/**
 * Whether the standings are over D1's row size by their result cells alone: a series of 20 races × 5,000 racers
 * is about 6 MB, and writing it out at every read only to learn that took 30 ms (decision 0079).
 */
export function surelyTooLarge(standings: SeriesStandings): boolean {
  return cellsOf(standings) * MIN_CELL_JSON_BYTES > MAX_CACHED_BYTES;
}

/** The result cells of the standings (the racers' rows weigh little beside them). */
function cellsOf(standings: SeriesStandings): number {
  let cells = 0;
  for (const category of standings.categories) for (const row of category.rows) for (const cell of row.cells) if (cell) cells++;
  return cells;
}

/**
 * The series' standings now (the cached ones while every member race's results are as they were), as the
 * principal may see them: a private member race is named only to those who may see the race.
 */
export async function seriesStandings(env: Env, db: Db, series: SeriesRecord, principal: Principal | null, later?: Later): Promise<SeriesStandings> {
  const { standings, races } = await currentStandings(env, db, series, later);
  const hidden = new Set(races.filter((race) => !maySeeRace(principal, race)).map((race) => race.id));
  if (hidden.size === 0) return standings;
  return { ...standings, races: standings.races.map((race, i) => (hidden.has(race.id) ? { ...race, name: `Race ${i + 1}` } : race)) };
}

async function currentStandings(
  env: Env,
  db: Db,
  series: SeriesRecord,
  later: Later | undefined,
): Promise<{ standings: SeriesStandings; races: RaceCatalogue[] }> {
  const config = configOf(series);
  // A points system gone since the config named it leaves the series' own rule in force.
  const [members, linked] = await Promise.all([
    membersOf(env, db, series, config),
    config.points_system ? findPointsSystem(db, series.clubId, config.points_system) : null,
  ]);
  const sourceKey = await digest(
    JSON.stringify({
      version: STANDINGS_VERSION,
      config: series.config,
      linked,
      file: series.lastPointsFile,
      races: members.map((m) => [m.race.id, m.race.name, m.race.startTime, m.formatId, m.version]),
    }),
  );
  const races = members.map((m) => m.race);
  const memoKey = `${series.id}:${sourceKey}`;
  const remembered = standingsMemo.get(memoKey);
  if (remembered) return { standings: remembered, races };
  const where = and(eq(pointsSeriesStandings.seriesId, series.id), eq(pointsSeriesStandings.clubId, series.clubId));
  const [cached] = await db.select().from(pointsSeriesStandings).where(where).limit(1);
  if (cached && cached.sourceKey === sourceKey) {
    standingsMemo.set(memoKey, cached.standings as SeriesStandings);
    return { standings: cached.standings as SeriesStandings, races };
  }
  const standings = await compute(db, members, series, config, linked, later);
  standingsMemo.set(memoKey, standings);
  // D1 keeps rows under 2 MB: a series too large to cache is computed at each read rather than failing it.
  if (surelyTooLarge(standings) || new TextEncoder().encode(JSON.stringify(standings)).length > MAX_CACHED_BYTES) return { standings, races };
  const row = { sourceKey, standings, computedAt: Date.now() };
  // Two readers racing write the same standings for the same key; the later write wins harmlessly.
  await db
    .insert(pointsSeriesStandings)
    .values({ seriesId: series.id, clubId: series.clubId, ...row })
    .onConflictDoUpdate({ target: pointsSeriesStandings.seriesId, set: row });
  return { standings, races };
}
