/**
 * The race's own row in its room (`race_setup`): who it is, its catalogue fields with their change times, and
 * its timing settings. The room is the single writer of this row; the D1 catalogue row follows it.
 */
import { drizzle } from "drizzle-orm/durable-sqlite";
import { applyFieldChanges, initialMtimes, type FieldMtimes } from "../../core/entity/field-mtimes";
import { raceChangesSchema, raceColumnOf, raceRowOf, type RaceChangeResult, type RaceEntity, type RaceValue } from "../../schema/race/entity";
import { zeroTimeOfRace } from "../../schema/race/settings";
import { raceSetup } from "../../schema/race/tables";
import { raceIdentitySchema, type RaceIdentity } from "../../schema/wire/race-socket";
import { isCatalogueBehind, writeCatalogueRow } from "./room-storage";

export type RaceRow = typeof raceSetup.$inferSelect;

export interface RaceSetupView extends RaceIdentity {
  createdAt: number;
}

/** What changed about the race that its results must follow, besides settings (which say so themselves). */
const RESULT_FIELDS = ["start_time", "end_time", "timezone"] as const;

export class RaceRecord {
  private readonly db;
  // Built once: drizzle spent longer making this query than SQLite spent answering it, on every device batch.
  private readonly rowQuery;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    /** Called when a change moves results (the gun, the time window, the zone). */
    private readonly resultsChanged: () => void,
  ) {
    this.db = drizzle(ctx.storage, { schema: { raceSetup } });
    this.rowQuery = this.db.select().from(raceSetup).prepare();
  }

  /** The row, or undefined before `open`. */
  row(): RaceRow | undefined {
    return this.rowQuery.get();
  }

  /** The gun, the time window and the zone, for every device batch (a narrower read than `row`). */
  times(): { startTime: number; endTime: number | null; timezone: string } | null {
    // Plain SQL, a row as an array: drizzle's mapping of this one row cost as much as SQLite's answer, every batch.
    // Read to the end, so no statement is left open when the batch's transaction commits.
    const [row] = [...this.ctx.storage.sql.exec("SELECT start_time, end_time, timezone FROM race_setup LIMIT 1").raw()];
    return row ? { startTime: row[0] as number, endTime: row[1] as number | null, timezone: row[2] as string } : null;
  }

  view(): RaceSetupView | null {
    const row = this.row();
    return row ? { id: row.id, clubId: row.clubId, name: row.name, startTime: row.startTime, timezone: row.timezone, createdAt: row.createdAt } : null;
  }

  /** Records which race this object holds; the first call wins and later calls return what is stored. */
  open(identity: RaceIdentity): RaceSetupView {
    const race = raceIdentitySchema.parse(identity);
    const existing = this.view();
    if (existing) return existing;
    const now = Date.now();
    const { fieldMtimes, ...fields } = race;
    const mtimes = fieldMtimes ?? initialMtimes({ club: race.clubId, name: race.name, start_time: race.startTime, timezone: race.timezone }, now);
    this.db
      .insert(raceSetup)
      .values({
        ...fields,
        visibility: fields.visibility ?? "public",
        createdAt: now,
        fieldMtimes: mtimes,
        settings: { zero_time: zeroTimeOfRace(race.startTime, race.timezone) },
      })
      .run();
    return { id: race.id, clubId: race.clubId, name: race.name, startTime: race.startTime, timezone: race.timezone, createdAt: now };
  }

  /** The Race as the data service shows it (API field names), or null before `open`. */
  entity(): RaceEntity | null {
    const row = this.row();
    return row ? { row: raceRowOf(row), mtimes: row.fieldMtimes } : null;
  }

  /**
   * Changes Race fields, then writes the catalogue row in D1 so lists show the change. Fields the caller read
   * at older times than stored are refused as stale, and nothing is written.
   */
  async change(changes: Record<string, unknown>, baseMtimes: FieldMtimes | null): Promise<RaceChangeResult | null> {
    // The registry's schemas yield only text, numbers and null for these fields.
    const parsed = raceChangesSchema.parse(changes) as Partial<Record<string, RaceValue>>;
    const row = this.row();
    if (!row) return null;
    const current = raceRowOf(row);
    const result = applyFieldChanges(current, row.fieldMtimes, parsed, Date.now(), baseMtimes ?? undefined);
    if (result.stale.length > 0) return { ok: false, stale: result.stale, row: current, mtimes: row.fieldMtimes };
    const changed = result.changed as Record<string, RaceValue>;
    if (Object.keys(changed).length > 0) {
      const columns: Partial<typeof raceSetup.$inferInsert> = { fieldMtimes: result.mtimes };
      for (const [field, value] of Object.entries(changed)) {
        (columns as Record<string, unknown>)[raceColumnOf[field as keyof typeof raceColumnOf]] = value;
      }
      // Zero time is recalculated from the start time (timing.md section 4), and from the zone it is read in.
      if ("start_time" in changed || "timezone" in changed) {
        const startTime = Number(changed.start_time ?? row.startTime);
        columns.settings = { ...row.settings, zero_time: zeroTimeOfRace(startTime, String(changed.timezone ?? row.timezone)) };
      }
      this.db.update(raceSetup).set(columns).run();
      await this.writeCatalogue();
      if (RESULT_FIELDS.some((field) => field in changed)) this.resultsChanged();
    }
    return { ok: true, changed, mtimes: result.mtimes, row: { ...current, ...changed } };
  }

  /** Stores timing settings (checked by the caller), with their change times when the caller keeps them. */
  writeSettings(settings: RaceRow["settings"], fieldMtimes?: FieldMtimes): void {
    this.db
      .update(raceSetup)
      .set(fieldMtimes ? { settings, fieldMtimes } : { settings })
      .run();
  }

  /** The D1 catalogue row follows this object's copy; a failed write is retried in 30 s by the alarm. */
  async writeCatalogue(): Promise<void> {
    await writeCatalogueRow(this.ctx, this.env, this.row() ?? null);
  }

  /** The alarm's half: a catalogue write that failed (D1 unreachable for a moment) is tried again. */
  async retryCatalogue(): Promise<void> {
    if (await isCatalogueBehind(this.ctx)) await this.writeCatalogue();
  }
}
