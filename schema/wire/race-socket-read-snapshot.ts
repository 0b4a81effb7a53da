/** The whole-format frames' readers (race-socket-read.ts): only pages that hold the whole format load them. */
import type { FormatSnapshot, ResultGroupWire, RowChange } from "./race-socket";
import {
  array,
  oneOf,
  boolean,
  count,
  fields,
  nullableCount,
  nullableNumber,
  number,
  optional,
  biathlon,
  nullable,
  nullableString,
  numbers,
  racerStatus,
  resultRow,
  run,
  segment,
  split,
  statusText,
  string,
  type FrameReaders,
} from "./race-socket-read";

const column = (value: unknown): ResultGroupWire["columns"][number] => {
  const o = fields(value);
  return {
    index: count(o.index),
    name: string(o.name),
    ...optional(o, "since", nullableCount),
    ...optional(o, "shooting", count),
    ...optional(o, "run", count),
    ...optional(o, "stage", count),
    ...optional(o, "segment", count),
    ...optional(o, "cumulative", boolean),
  };
};

const pace = (value: unknown): NonNullable<ResultGroupWire["pace"]> => {
  const o = fields(value);
  return { courseKm: nullableNumber(o.courseKm), lapKm: nullableNumber(o.lapKm) };
};

const resultGroup = (value: unknown): ResultGroupWire => {
  const o = fields(value);
  return {
    id: string(o.id),
    name: string(o.name),
    sameTimeThreshold: number(o.sameTimeThreshold),
    columns: array(column)(o.columns),
    ...optional(o, "timeLabel", string),
    ...optional(o, "splitRanks", boolean),
    ...optional(o, "splitGaps", boolean),
    ...optional(o, "lapsBehind", boolean),
    ...optional(o, "pace", pace),
  };
};

// The relay's values as a record, not core/timing/relay.ts's list: that module would join the heats page's bundle.
const lapTimeDisplay = oneOf<NonNullable<FormatSnapshot["relay"]>["lapTimeDisplay"]>({ racer_at_lap_finish: true, team_elapsed: true });

const relay = (value: unknown): NonNullable<FormatSnapshot["relay"]> => {
  const o = fields(value);
  return { memberCount: count(o.memberCount), lapTimeDisplay: lapTimeDisplay(o.lapTimeDisplay) };
};

const stage = (value: unknown): NonNullable<FormatSnapshot["stage"]> => ({ number: count(fields(value).number) });

const formatSnapshot = (value: unknown): FormatSnapshot => {
  const o = fields(value);
  return {
    formatId: string(o.formatId),
    name: string(o.name),
    version: string(o.version),
    displayPrecision: count(o.displayPrecision),
    displayDiffs: boolean(o.displayDiffs),
    sameTimeDisplay: string(o.sameTimeDisplay),
    isAnnouncer: boolean(o.isAnnouncer),
    groups: array(resultGroup)(o.groups),
    rows: array(resultRow)(o.rows),
    ...optional(o, "relay", relay),
    ...optional(o, "stage", stage),
  };
};

/** A row change of a patch frame: every field of a row optional, the racer named by handle or id (rowChangeSchema). */
const rowChange = (value: unknown): RowChange => {
  const o = fields(value);
  return {
    ...optional(o, "h", count),
    ...optional(o, "racerId", string),
    ...optional(o, "splitsFrom", count),
    ...optional(o, "status", racerStatus),
    ...optional(o, "statusText", statusText),
    ...optional(o, "start", nullableNumber),
    ...optional(o, "laps", count),
    ...optional(o, "splits", array(split)),
    ...optional(o, "finish", nullableNumber),
    ...optional(o, "time", nullableNumber),
    ...optional(o, "key", numbers),
    ...optional(o, "rankKey", nullable(numbers)),
    ...optional(o, "bib", nullableNumber),
    ...optional(o, "name", string),
    ...optional(o, "club", nullableString),
    ...optional(o, "team", nullableString),
    ...optional(o, "city", nullableString),
    ...optional(o, "course", nullableString),
    ...optional(o, "groups", array(string)),
    ...optional(o, "biathlon", biathlon),
    ...optional(o, "runs", array(run)),
    ...optional(o, "leg", nullableCount),
    ...optional(o, "handover", nullableNumber),
    ...optional(o, "stageTimes", array(nullableNumber)),
    ...optional(o, "stageBonuses", array(nullableNumber)),
    ...optional(o, "segments", array(segment)),
  };
};

/** Pages holding a whole format read its snapshots and the patches to it. */
export const SNAPSHOT_FRAMES: FrameReaders = {
  snapshot: (o) => ({ type: "snapshot", snapshot: formatSnapshot(o.snapshot) }),
  patch: (o) => ({
    type: "patch",
    formatId: string(o.formatId),
    from: string(o.from),
    version: string(o.version),
    rows: array(resultRow)(o.rows),
    changes: array(rowChange)(o.changes),
  }),
};
