/**
 * SQL over a RaceRoom's own storage (tables in schema/race/migrations.ts). Every write of a batch runs
 * inside the caller's transactionSync, so a batch is written whole or not at all.
 */
import type { Crossing } from "../../core/timing/model";
import { raceDocumentSchemas, type RaceDocumentKind, type RaceDocumentOf, type StoredDocument } from "../../schema/race/documents";
import type { StoredRacer } from "../../schema/race/engine-input";
import { chipsOf, racerFromStorage, type RacerDoc } from "../../schema/race/racer";
import { insertCrossingRows, readKeyOf, type CrossingState, type NewCrossing } from "./crossing-writes";

/** A racer as the racers list searches and orders them (a type, not an interface: SQL rows need an index signature). */
export type RacerNames = {
  id: string;
  bib: number | null;
  firstName: string;
  lastName: string;
  fullname: string;
};

export interface CrossingRow {
  seq: number;
  device_id: string;
  /** 0 for a keypad entry. */
  device_seq: number;
  /** '' for a device that sends no boot; a keypad entry's client key. */
  device_boot: string;
  timing_point_id: string | null;
  chip: string | null;
  bib: number | null;
  channel: number | null;
  device_time: number;
  time: number;
  racer_id: string | null;
  state: CrossingState;
  received_at: number;
}

type Row = Record<string, SqlStorageValue>;

/** A read that loses its racer waits for one again; an announcer read stays an announcer read. */
const UNASSIGNED_STATE = "CASE state WHEN 'info' THEN 'info' ELSE 'unmatched' END";

export interface AnnouncerReadRow {
  racer_id: string;
  timing_point_id: string | null;
  device_id: string;
  channel: number | null;
  time: number;
}

export class RaceStore {
  constructor(private readonly sql: SqlStorage) {}

  // Documents (courses, timing points, devices, start groups, result formats and groups, reports).

  documents<K extends RaceDocumentKind>(kind: K): StoredDocument<K>[] {
    return this.sql
      .exec<{ id: string; ordinal: number; data: string }>("SELECT id, ordinal, data FROM race_documents WHERE kind = ? ORDER BY ordinal, id", kind)
      .toArray()
      .map((row) => ({ id: row.id, kind, ordinal: row.ordinal, data: readDocument(kind, row.data) }));
  }

  document<K extends RaceDocumentKind>(kind: K, id: string): StoredDocument<K> | null {
    const row = this.sql.exec<{ ordinal: number; data: string }>("SELECT ordinal, data FROM race_documents WHERE kind = ? AND id = ?", kind, id).toArray()[0];
    return row ? { id, kind, ordinal: row.ordinal, data: readDocument(kind, row.data) } : null;
  }

  nextOrdinal(kind: RaceDocumentKind): number {
    const row = this.sql.exec<{ n: number | null }>("SELECT MAX(ordinal) AS n FROM race_documents WHERE kind = ?", kind).one();
    return (row.n ?? 0) + 1;
  }

  putDocument<K extends RaceDocumentKind>(kind: K, id: string, ordinal: number, data: RaceDocumentOf<K>, mtimes: Record<string, number>): void {
    this.sql.exec(
      `INSERT INTO race_documents (id, kind, ordinal, data, field_mtimes) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET ordinal = excluded.ordinal, data = excluded.data, field_mtimes = excluded.field_mtimes`,
      id,
      kind,
      ordinal,
      JSON.stringify(data),
      JSON.stringify(mtimes),
    );
  }

  documentMtimes(id: string): Record<string, number> {
    const row = this.sql.exec<{ field_mtimes: string }>("SELECT field_mtimes FROM race_documents WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.field_mtimes) as Record<string, number>) : {};
  }

  deleteDocument(id: string): boolean {
    return this.sql.exec("DELETE FROM race_documents WHERE id = ?", id).rowsWritten > 0;
  }

  // Racers.

  racers(): StoredRacer[] {
    return this.sql
      .exec<{ id: string; data: string; handle: number }>("SELECT id, data, handle FROM racers")
      .toArray()
      .map((row) => ({ id: row.id, data: racerFromStorage(row.data), handle: row.handle }));
  }

  /** Up to `limit` racers after the row `after` (0 for the first), by row, and each one's row: a slice of the field whatever its size. */
  racersAfter(after: number, limit: number): { row: number; racer: StoredRacer }[] {
    return this.sql
      .exec<{ row: number; id: string; data: string; handle: number }>(
        "SELECT rowid AS row, id, data, handle FROM racers WHERE rowid > ? ORDER BY rowid LIMIT ?",
        after,
        limit,
      )
      .toArray()
      .map((row) => ({ row: row.row, racer: { id: row.id, data: racerFromStorage(row.data), handle: row.handle } }));
  }

  /**
   * Every racer's id, bib and name parts, from the columns kept beside the document (race storage step 9): the
   * racers list searches and orders these, and parses only the documents of the page it shows.
   */
  racerNames(): RacerNames[] {
    // As arrays: workerd builds an object a row far more slowly, and this reads every racer for each page.
    const names: RacerNames[] = [];
    for (const row of this.sql.exec("SELECT id, bib, first_name, last_name, fullname FROM racers").raw()) {
      const [id, bib, firstName, lastName, fullname] = row as [string, number | null, string, string, string];
      names.push({ id, bib, firstName, lastName, fullname });
    }
    return names;
  }

  /** The racers with these ids, in the order given (an id not found is left out). */
  racersById(ids: readonly string[]): StoredRacer[] {
    const found = new Map(
      this.sql
        .exec<{ id: string; data: string; handle: number }>(
          "SELECT id, data, handle FROM racers WHERE id IN (SELECT value FROM json_each(?))",
          JSON.stringify(ids),
        )
        .toArray()
        .map((row) => [row.id, { id: row.id, data: racerFromStorage(row.data), handle: row.handle }]),
    );
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Every racer's id, bib and chip, in the order they were added: a few bytes a racer where `racers` carries documents. */
  racerTags(): { id: string; bib: number | null; chip: string | null }[] {
    return this.sql
      .exec<{ id: string; bib: number | null; chip: string | null }>("SELECT id, bib, json_extract(data, '$.chip') AS chip FROM racers ORDER BY handle")
      .toArray();
  }

  racer(id: string): StoredRacer | null {
    const row = this.sql.exec<{ data: string; handle: number }>("SELECT data, handle FROM racers WHERE id = ?", id).toArray()[0];
    return row ? { id, data: racerFromStorage(row.data), handle: row.handle } : null;
  }

  racerIdByBib(bib: number): string | null {
    return this.sql.exec<{ id: string }>("SELECT id FROM racers WHERE bib = ? LIMIT 1", bib).toArray()[0]?.id ?? null;
  }

  racerIdByChip(chip: string): string | null {
    return this.sql.exec<{ racer_id: string }>("SELECT racer_id FROM racer_chips WHERE chip = ?", chip).toArray()[0]?.racer_id ?? null;
  }

  /** Chips already held by another racer, which a save must not take. */
  chipsTakenByOthers(racerId: string, chips: string[]): string[] {
    return chips.filter((chip) => {
      const owner = this.racerIdByChip(chip);
      return owner !== null && owner !== racerId;
    });
  }

  bibTakenByOther(racerId: string, bib: number | null): boolean {
    if (bib === null) return false;
    const owner = this.racerIdByBib(bib);
    return owner !== null && owner !== racerId;
  }

  /** Writes the racer; returns its handle. */
  putRacer(id: string, data: RacerDoc, mtimes: Record<string, number>): number | undefined {
    const handle = this.sql
      .exec<{ handle: number | null }>(
        // A new racer takes the next handle (never one a deleted racer had: frames already sent may name it); an
        // update keeps its own.
        `INSERT INTO racers (id, bib, first_name, last_name, fullname, data, field_mtimes, handle)
         VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT next_handle FROM live_push WHERE id = 1))
         ON CONFLICT (id) DO UPDATE SET bib = excluded.bib, first_name = excluded.first_name, last_name = excluded.last_name,
           fullname = excluded.fullname, data = excluded.data, field_mtimes = excluded.field_mtimes
         RETURNING handle`,
        id,
        data.bib,
        data.first_name,
        data.last_name,
        data.fullname,
        JSON.stringify(data),
        JSON.stringify(mtimes),
      )
      .one().handle;
    this.sql.exec("UPDATE live_push SET next_handle = next_handle + 1 WHERE id = 1 AND next_handle = ?", handle);
    this.sql.exec("DELETE FROM racer_chips WHERE racer_id = ?", id);
    for (const chip of chipsOf(data)) this.sql.exec("INSERT INTO racer_chips (chip, racer_id) VALUES (?, ?)", chip, id);
    return handle ?? undefined;
  }

  racerMtimes(id: string): Record<string, number> {
    const row = this.sql.exec<{ field_mtimes: string }>("SELECT field_mtimes FROM racers WHERE id = ?", id).toArray()[0];
    return row ? (JSON.parse(row.field_mtimes) as Record<string, number>) : {};
  }

  deleteRacer(id: string): boolean {
    this.sql.exec("DELETE FROM racer_chips WHERE racer_id = ?", id);
    // Its reads stay in the log, unassigned, so re-adding the racer finds them again (announcer reads stay announcer reads).
    this.sql.exec(`UPDATE crossings SET racer_id = NULL, state = ${UNASSIGNED_STATE} WHERE racer_id = ?`, id);
    return this.sql.exec("DELETE FROM racers WHERE id = ?", id).rowsWritten > 0;
  }

  racerCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM racers").one().n;
  }

  /** Racers whose course or start group is this document (a deletion must not leave them pointing at nothing). */
  racersUsing(field: "course" | "setupgroup_id", documentId: string): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM racers WHERE data ->> ? = ?", `$.${field}`, documentId).one().n;
  }

  // Device credentials: only the SHA-256 of the secret is kept.

  credentialHash(deviceId: string): string | null {
    return this.sql.exec<{ secret_hash: string }>("SELECT secret_hash FROM device_credentials WHERE device_id = ?", deviceId).toArray()[0]?.secret_hash ?? null;
  }

  setCredentialHash(deviceId: string, hash: string, now: number): void {
    this.sql.exec(
      "INSERT INTO device_credentials (device_id, secret_hash, created_at) VALUES (?, ?, ?) ON CONFLICT (device_id) DO UPDATE SET secret_hash = excluded.secret_hash, created_at = excluded.created_at",
      deviceId,
      hash,
      now,
    );
  }

  deleteCredential(deviceId: string): void {
    this.sql.exec("DELETE FROM device_credentials WHERE device_id = ?", deviceId);
  }

  // The crossing log.

  /** Writes a read unless its key was written before; its log position when new, null when a repeat. */
  insertCrossing(c: NewCrossing): number | null {
    return this.insertCrossings([c]).get(readKeyOf(c.deviceId, c.deviceBoot, c.deviceSeq)) ?? null;
  }

  /** Writes a batch of reads in one statement (crossing-writes.ts): each new read's log position, by readKeyOf. */
  insertCrossings(rows: readonly NewCrossing[]): Map<string, number> {
    return insertCrossingRows(this.sql, rows);
  }

  /** The racers holding these chips and bibs, looked up in two statements for a whole batch. */
  racersByChipsAndBibs(chips: readonly string[], bibs: readonly number[]): { byChip: Map<string, string>; byBib: Map<number, string> } {
    const byChip = new Map<string, string>();
    const byBib = new Map<number, string>();
    if (chips.length > 0) {
      const rows = this.sql.exec<{ chip: string; racer_id: string }>(
        "SELECT chip, racer_id FROM racer_chips WHERE chip IN (SELECT value FROM json_each(?))",
        JSON.stringify([...new Set(chips)]),
      );
      for (const row of rows) byChip.set(row.chip, row.racer_id);
    }
    if (bibs.length > 0) {
      // The first racer by bib, as racerIdByBib answers (a bib is unique among racers, so there is one).
      const rows = this.sql.exec<{ bib: number; id: string }>(
        "SELECT bib, MIN(id) AS id FROM racers WHERE bib IN (SELECT value FROM json_each(?)) GROUP BY bib",
        JSON.stringify([...new Set(bibs)]),
      );
      for (const row of rows) byBib.set(row.bib, row.id);
    }
    return { byChip, byBib };
  }

  /** The crossings the engine uses: assigned to a racer at a timing point. */
  assignedCrossings(upTo = Number.MAX_SAFE_INTEGER): Crossing[] {
    // Rows as arrays, not objects: a wake-up reads the whole log (80,000 rows for a big race).
    const crossings: Crossing[] = [];
    const cursor = this.sql.exec("SELECT seq, racer_id, timing_point_id, time FROM crossings WHERE state = 'assigned' AND seq <= ? ORDER BY seq", upTo);
    for (const [seq, racerId, timingPointId, time] of cursor.raw()) {
      crossings.push({ seq: seq as number, racerId: racerId as string, timingPointId: timingPointId as string, time: time as number });
    }
    return crossings;
  }

  /** The log after `position`: its assigned reads, and the position it now reaches. */
  assignedCrossingsAfter(position: number): { crossings: Crossing[]; position: number } {
    // Rows as arrays: every device batch comes back this way, and objects per row were about 3% of a busy room's time.
    const crossings: Crossing[] = [];
    let reached = position;
    const cursor = this.sql.exec("SELECT seq, racer_id, timing_point_id, time, state FROM crossings WHERE seq > ? ORDER BY seq", position);
    for (const [seq, racerId, timingPointId, time, state] of cursor.raw()) {
      reached = seq as number;
      if (state === "assigned") crossings.push({ seq: reached, racerId: racerId as string, timingPointId: timingPointId as string, time: time as number });
    }
    return { crossings, position: reached };
  }

  /** Moved by every write of a racer, a setup document or the race's row (storage step 10's triggers), never by a read. */
  listRevision(): number {
    return this.sql.exec<{ n: number }>("SELECT n FROM list_revision WHERE id = 1").one().n;
  }

  /** The newest log position (0 before the first read). */
  lastSeq(): number {
    return this.sql.exec<{ n: number | null }>("SELECT MAX(seq) AS n FROM crossings").one().n ?? 0;
  }

  crossingsOfRacer(racerId: string): CrossingRow[] {
    return this.sql.exec<Row>("SELECT * FROM crossings WHERE racer_id = ? ORDER BY time, seq", racerId).toArray() as unknown as CrossingRow[];
  }

  recentCrossings(limit: number): CrossingRow[] {
    return this.sql.exec<Row>("SELECT * FROM crossings ORDER BY seq DESC LIMIT ?", limit).toArray() as unknown as CrossingRow[];
  }

  crossingCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM crossings").one().n;
  }

  /** The highest sequence number written for a device in one boot, -1 before its first read. */
  lastDeviceSeq(deviceId: string, boot: string | null): number {
    const row = this.sql
      .exec<{ n: number | null }>("SELECT MAX(device_seq) AS n FROM crossings WHERE device_id = ? AND device_boot = ?", deviceId, boot ?? "")
      .one();
    return row.n ?? -1;
  }

  /** What a device's read already holds: a resend must match it, or the device reused a sequence number. */
  storedRead(
    deviceId: string,
    boot: string | null,
    seq: number,
  ): { chip: string | null; bib: number | null; channel: number | null; device_time: number } | null {
    return (
      this.sql
        .exec<{
          chip: string | null;
          bib: number | null;
          channel: number | null;
          device_time: number;
        }>("SELECT chip, bib, channel, device_time FROM crossings WHERE device_id = ? AND device_boot = ? AND device_seq = ?", deviceId, boot ?? "", seq)
        .toArray()[0] ?? null
    );
  }

  /**
   * Gives a racer the unmatched reads of its bib and chips (a racer added after its reads arrived), and the
   * announcer reads no racer had. Returns how many were assigned (announcer reads time nobody, so are not counted).
   */
  assignUnmatched(racerId: string, bib: number | null, chips: string[]): number {
    if (bib !== null) this.sql.exec("UPDATE crossings SET racer_id = ? WHERE racer_id IS NULL AND state = 'info' AND bib = ?", racerId, bib);
    for (const chip of chips) this.sql.exec("UPDATE crossings SET racer_id = ? WHERE racer_id IS NULL AND state = 'info' AND chip = ?", racerId, chip);
    let assigned = 0;
    if (bib !== null) {
      assigned += this.sql.exec(
        "UPDATE crossings SET racer_id = ?, state = 'assigned' WHERE racer_id IS NULL AND state = 'unmatched' AND bib = ?",
        racerId,
        bib,
      ).rowsWritten;
    }
    for (const chip of chips) {
      assigned += this.sql.exec(
        "UPDATE crossings SET racer_id = ?, state = 'assigned' WHERE racer_id IS NULL AND state = 'unmatched' AND chip = ?",
        racerId,
        chip,
      ).rowsWritten;
    }
    return assigned;
  }

  /** Takes back a racer's reads of a bib or chips it no longer has. */
  releaseStale(racerId: string, bib: number | null, chips: string[]): number {
    const placeholders = chips.map(() => "?").join(", ");
    const chipClause = chips.length > 0 ? `chip NOT IN (${placeholders})` : "1";
    return this.sql.exec(
      `UPDATE crossings SET racer_id = NULL, state = ${UNASSIGNED_STATE}
       WHERE racer_id = ? AND device_id != 'manual' AND ((chip IS NOT NULL AND ${chipClause}) OR (bib IS NOT NULL AND bib IS NOT ?))`,
      racerId,
      ...chips,
      bib,
    ).rowsWritten;
  }

  /** Clears every time of a racer (timing.md: "Clearing all times"), precalls too: its reads stay in the log, set aside. */
  clearRacerTimes(racerId: string): number {
    return this.sql.exec("UPDATE crossings SET state = 'cleared' WHERE racer_id = ? AND state IN ('assigned', 'info')", racerId).rowsWritten;
  }

  /** Clears every racer's times at once (a restarted demo, a rehearsal before the real race): reads stay in the log. */
  clearAllTimes(): number {
    return this.sql.exec("UPDATE crossings SET state = 'cleared' WHERE state IN ('assigned', 'unmatched', 'info')").rowsWritten;
  }

  // Announcer reads (precall and on-course devices: state 'info').

  /** The newest announcer reads that name a racer, newest first (the partial index crossings_info finds them). */
  announcerReads(limit: number): AnnouncerReadRow[] {
    const rows: AnnouncerReadRow[] = [];
    const cursor = this.sql.exec(
      "SELECT racer_id, timing_point_id, device_id, channel, time FROM crossings WHERE state = 'info' AND racer_id IS NOT NULL ORDER BY seq DESC LIMIT ?",
      limit,
    );
    for (const [racerId, pointId, deviceId, channel, time] of cursor.raw()) {
      rows.push({
        racer_id: racerId as string,
        timing_point_id: pointId as string | null,
        device_id: deviceId as string,
        channel: channel as number | null,
        time: time as number,
      });
    }
    return rows;
  }

  /** Whether an announcer read was written between two log positions (after `after`, up to `upTo`). */
  hasAnnouncerReads(after: number, upTo: number): boolean {
    return this.sql.exec("SELECT 1 FROM crossings WHERE state = 'info' AND seq > ? AND seq <= ? LIMIT 1", after, upTo).toArray().length > 0;
  }

  /** A device's clock offset changed: every time it sent is recomputed from the device time. */
  reapplyOffset(deviceId: string, offset: number): void {
    this.sql.exec("UPDATE crossings SET time = device_time + ? WHERE device_id = ?", offset, deviceId);
  }

  // Keypad entries.

  hasManualEntry(key: string): boolean {
    return this.sql.exec("SELECT 1 FROM manual_entries WHERE key = ?", key).toArray().length > 0;
  }

  /** The newest keyed entries first (received order within a millisecond). */
  keyedEntries(limit: number): KeyedEntryRow[] {
    return this.sql
      .exec<KeyedEntryRow>("SELECT key, kind, bib, body, by_user, received_at FROM manual_entries ORDER BY received_at DESC, rowid DESC LIMIT ?", limit)
      .toArray();
  }

  insertManualEntry(key: string, kind: string, bib: number, body: unknown, byUser: string | null, now: number): void {
    this.sql.exec(
      "INSERT INTO manual_entries (key, kind, bib, body, by_user, received_at) VALUES (?, ?, ?, ?, ?, ?)",
      key,
      kind,
      bib,
      JSON.stringify(body),
      byUser,
      now,
    );
  }
}

export type KeyedEntryRow = {
  key: string;
  kind: string;
  bib: number;
  body: string;
  by_user: string | null;
  received_at: number;
};

function readDocument<K extends RaceDocumentKind>(kind: K, json: string): RaceDocumentOf<K> {
  // Stored documents were checked on write; parsing again fills defaults of fields added since.
  return raceDocumentSchemas[kind].parse(JSON.parse(json)) as RaceDocumentOf<K>;
}
