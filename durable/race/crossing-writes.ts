/**
 * How a read enters a race's crossing log: its state, its columns, and the key that makes a resent read a
 * duplicate. RaceStore.insertCrossings writes a batch through here.
 */

/**
 * assigned: used for results; unmatched: no racer has its chip or bib (yet); outside: outside the race's time
 * window; nopoint: its device is on no timing point; info: a precall or oncourse device; cleared: set aside by "Clear all times".
 */
export type CrossingState = "assigned" | "unmatched" | "outside" | "nopoint" | "info" | "cleared";

export interface NewCrossing {
  deviceId: string;
  deviceSeq: number;
  /** The device's boot (session) id: after a restart the same sequence numbers name new reads. */
  deviceBoot: string | null;
  timingPointId: string | null;
  chip: string | null;
  bib: number | null;
  channel: number | null;
  deviceTime: number;
  time: number;
  racerId: string | null;
  state: CrossingState;
  receivedAt: number;
}

/** The crossing log's columns as insertCrossings writes them, each with its value in a new read. */
const CROSSING_COLUMNS: readonly (readonly [string, (c: NewCrossing) => SqlStorageValue])[] = [
  ["device_id", (c) => c.deviceId],
  ["device_boot", (c) => c.deviceBoot ?? ""],
  ["device_seq", (c) => c.deviceSeq],
  ["timing_point_id", (c) => c.timingPointId],
  ["chip", (c) => c.chip],
  ["bib", (c) => c.bib],
  ["channel", (c) => c.channel],
  ["device_time", (c) => c.deviceTime],
  ["time", (c) => c.time],
  ["racer_id", (c) => c.racerId],
  ["state", (c) => c.state],
  ["received_at", (c) => c.receivedAt],
];

/**
 * The key that makes a resent read a duplicate: device, boot (when the device sends one) and sequence
 * number, the columns of the unique index crossings_read (storage step 8).
 */
export function readKeyOf(deviceId: string, boot: string | null, seq: number): string {
  return boot === null || boot === "" ? `${deviceId}:${seq}` : `${deviceId}:${boot}:${seq}`;
}

/**
 * Writes a batch of reads in one statement (the rows travel as one JSON parameter, so a batch of any size
 * is a single call into SQLite: one call per read cost most of a batch's time). A column every row shares
 * (a batch's device, boot, point and arrival, usually its state) is bound once instead: each value SQLite
 * takes out of the JSON costs about a microsecond a row (decision 0092). Returns the log position of each
 * newly written read, by readKeyOf, in batch order; reads written before are absent.
 */
export function insertCrossingRows(sql: SqlStorage, rows: readonly NewCrossing[]): Map<string, number> {
  const written = new Map<string, number>();
  if (rows.length === 0) return written;
  const first = rows[0]!;
  const shared = CROSSING_COLUMNS.map(([, valueOf]) => rows.every((row) => valueOf(row) === valueOf(first)));
  const bound: SqlStorageValue[] = [];
  let fromJson = 0;
  const values = CROSSING_COLUMNS.map(([, valueOf], i) => {
    if (!shared[i]) return `value ->> ${fromJson++}`;
    bound.push(valueOf(first));
    // ?1 is the JSON; bound values follow it.
    return `?${bound.length + 1}`;
  });
  const json = JSON.stringify(rows.map((row) => CROSSING_COLUMNS.flatMap(([, valueOf], i) => (shared[i] ? [] : [valueOf(row)]))));
  const cursor = sql.exec<{ seq: number; device_id: string; device_boot: string; device_seq: number }>(
    `INSERT INTO crossings (${CROSSING_COLUMNS.map(([name]) => name).join(", ")})
     SELECT ${values.join(", ")} FROM json_each(?1) WHERE true ORDER BY key
     ON CONFLICT (device_id, device_boot, device_seq) DO NOTHING RETURNING seq, device_id, device_boot, device_seq`,
    json,
    ...bound,
  );
  for (const row of cursor) written.set(readKeyOf(row.device_id, row.device_boot, row.device_seq), row.seq);
  return written;
}
