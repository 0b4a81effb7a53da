import { eq } from "drizzle-orm";
import { openDb, races } from "../../schema/d1";
import { raceRoomMigrations } from "../../schema/race/migrations";
import { raceDayOf, readRaceSettings } from "../../schema/race/settings";
import type { raceSetup } from "../../schema/race/tables";
import { engineCourseDocs } from "../../schema/race/free-order";
import type { RaceState } from "./live-results";
import type { RaceStore } from "./store";

/** Brings the RaceRoom's SQLite storage up to the newest migration, each step in its own transaction. */
export function migrateRaceStorage(ctx: DurableObjectState): void {
  const sql = ctx.storage.sql;
  sql.exec("CREATE TABLE IF NOT EXISTS _race_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied = new Set(
    sql
      .exec<{ version: number }>("SELECT version FROM _race_migrations")
      .toArray()
      .map((r) => r.version),
  );
  for (const step of raceRoomMigrations) {
    if (applied.has(step.version)) continue;
    ctx.storage.transactionSync(() => {
      for (const statement of step.statements) sql.exec(statement);
      sql.exec("INSERT INTO _race_migrations (version, applied_at) VALUES (?, ?)", step.version, Date.now());
    });
  }
}

/** The newest migration this object's storage has run. */
export function storageVersionOf(ctx: DurableObjectState): number {
  return ctx.storage.sql.exec<{ version: number }>("SELECT MAX(version) AS version FROM _race_migrations").one().version;
}

/** The race as stored, with the crossing log up to `upTo` (all of it when undefined), for the results. */
export function raceStateOf(store: RaceStore, row: typeof raceSetup.$inferSelect, upTo?: number): RaceState {
  const settings = readRaceSettings(row.settings);
  const position = upTo ?? store.lastSeq();
  return {
    settings,
    startTimeMs: row.startTime,
    endTimeMs: row.endTime,
    raceDay: raceDayOf(row.startTime, row.timezone),
    docs: {
      // A free-order race is ranked on its course groups, not its segment courses.
      courses: engineCourseDocs(settings, store.documents("Course")),
      points: store.documents("TimingPoint"),
      startGroups: store.documents("StartGroup"),
      formats: store.documents("ResultFormat"),
      groups: store.documents("ResultGroup"),
    },
    racers: store.racers(),
    crossings: store.assignedCrossings(position),
    position,
  };
}

/** Storage key: the D1 catalogue row is behind this object's copy (a write failed and waits for the alarm). */
const CATALOGUE_DIRTY = "catalogue-dirty";

export async function isCatalogueBehind(ctx: DurableObjectState): Promise<boolean> {
  return Boolean(await ctx.storage.get<boolean>(CATALOGUE_DIRTY));
}

/** Writes the race's catalogue row back to D1; a failure is marked and retried by the alarm 30 s later. */
export async function writeCatalogueRow(ctx: DurableObjectState, env: Env, row: typeof raceSetup.$inferSelect | null): Promise<void> {
  if (!row) return;
  try {
    await openDb(env.DB)
      .update(races)
      .set({
        name: row.name,
        sport: row.sport,
        startTime: row.startTime,
        endTime: row.endTime,
        timezone: row.timezone,
        location: row.location,
        visibility: row.visibility,
        fieldMtimes: row.fieldMtimes,
      })
      .where(eq(races.id, row.id));
    await ctx.storage.delete(CATALOGUE_DIRTY);
  } catch (error) {
    console.error("catalogue write failed; retrying", error);
    await ctx.storage.put(CATALOGUE_DIRTY, true);
    await ctx.storage.setAlarm(Date.now() + 30_000);
  }
}
