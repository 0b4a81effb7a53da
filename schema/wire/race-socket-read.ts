/**
 * The browser's reader of race socket frames: accepts exactly what raceServerMessageSchema (race-socket.ts)
 * accepts and returns the same value, without zod, whose core would be 8.8 KiB gzip of the results page
 * (issues 23 and 29). The types are the schema's (type-only imports bundle nothing); a required field the
 * schema gains fails `tsc` here, and race-socket-read.test.ts checks both agree on every frame it draws.
 */
import type { FormatSnapshot, HeatEntryWire, HeatGroupWire, HeatsView, HeatWire, RaceServerMessage, ResultGroupWire, ResultRow } from "./race-socket";

type Read<T> = (value: unknown) => T;
type Fields = Readonly<Record<string, unknown>>;

// One shared sentinel: a refused frame is the exception, so no error object or message is built for it.
const REFUSED = new Error("race frame refused");
const refuse = (): never => {
  throw REFUSED;
};

/** As zod's object check: anything but null or an array. */
const fields = (value: unknown): Fields => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : refuse());
const string: Read<string> = (value) => (typeof value === "string" ? value : refuse());
const boolean: Read<boolean> = (value) => (typeof value === "boolean" ? value : refuse());
/** z.number(): finite only (JSON.parse reads 1e400 as Infinity). */
const number: Read<number> = (value) => (typeof value === "number" && Number.isFinite(value) ? value : refuse());
/** z.int().check(z.nonnegative()): a safe integer from 0. */
const count: Read<number> = (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : refuse());
const nullable =
  <T>(read: Read<T>): Read<T | null> =>
  (value) =>
    value === null ? null : read(value);
const array =
  <T>(read: Read<T>): Read<T[]> =>
  (value) => {
    if (!Array.isArray(value)) return refuse();
    const out: T[] = [];
    // Indexed, not map: a hole is undefined to zod, and refused.
    for (let i = 0; i < value.length; i++) out.push(read(value[i]));
    return out;
  };
/** z.enum: the values as a record typed by the schema's union, so a value added to or dropped from the schema fails `tsc`. */
const oneOf =
  <T extends string>(values: Record<T, true>): Read<T> =>
  (value) =>
    typeof value === "string" && Object.hasOwn(values, value) ? (value as T) : refuse();
/** z.optional: an absent key stays absent, a present undefined stays present (zod's handlePropertyResult). */
function optional<K extends string, T>(from: Fields, key: K, read: Read<T>): { [P in K]?: T } {
  if (!(key in from)) return {};
  const value = from[key];
  return { [key]: value === undefined ? undefined : read(value) } as { [P in K]?: T };
}

const racerStatus = oneOf<ResultRow["status"]>({ dns: true, dnf: true, dsq: true, notstarted: true, oncourse: true, finished: true });
const statusText = oneOf<ResultRow["statusText"]>({ "": true, DSQ: true, DNS: true, DNF: true });
const heatStatus = nullable(oneOf<NonNullable<HeatEntryWire["status"]>>({ dns: true, dnf: true, dsq: true }));
const nullableNumber = nullable(number);
const nullableCount = nullable(count);
const nullableString = nullable(string);
const numbers = array(number);

const split = (value: unknown): ResultRow["splits"][number] => {
  const o = fields(value);
  return { index: count(o.index), coursePointId: string(o.coursePointId), lap: count(o.lap), time: number(o.time), elapsed: number(o.elapsed) };
};

const biathlon = (value: unknown): NonNullable<ResultRow["biathlon"]> => {
  const o = fields(value);
  return {
    misses: array(nullableCount)(o.misses),
    loops: array(count)(o.loops),
    penalty: number(o.penalty),
    total: nullableNumber(o.total),
    range: nullableNumber(o.range),
    ski: nullableNumber(o.ski),
  };
};

const run = (value: unknown): NonNullable<ResultRow["runs"]>[number] => {
  const o = fields(value);
  return { status: racerStatus(o.status), time: nullableNumber(o.time) };
};

const segment = (value: unknown): NonNullable<ResultRow["segments"]>[number] => {
  const o = fields(value);
  return { time: nullableNumber(o.time), runs: count(o.runs) };
};

const resultRow = (value: unknown): ResultRow => {
  const o = fields(value);
  return {
    racerId: string(o.racerId),
    status: racerStatus(o.status),
    statusText: statusText(o.statusText),
    start: nullableNumber(o.start),
    laps: count(o.laps),
    splits: array(split)(o.splits),
    finish: nullableNumber(o.finish),
    time: nullableNumber(o.time),
    key: numbers(o.key),
    rankKey: nullable(numbers)(o.rankKey),
    bib: nullableNumber(o.bib),
    name: string(o.name),
    club: nullableString(o.club),
    team: nullableString(o.team),
    city: nullableString(o.city),
    course: nullableString(o.course),
    groups: array(string)(o.groups),
    ...optional(o, "biathlon", biathlon),
    ...optional(o, "runs", array(run)),
    ...optional(o, "leg", nullableCount),
    ...optional(o, "handover", nullableNumber),
    ...optional(o, "stageTimes", array(nullableNumber)),
    ...optional(o, "stageBonuses", array(nullableNumber)),
    ...optional(o, "segments", array(segment)),
  };
};

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

const heatEntry = (value: unknown): HeatEntryWire => {
  const o = fields(value);
  return {
    racerId: nullableString(o.racerId),
    seat: string(o.seat),
    bib: nullableNumber(o.bib),
    name: string(o.name),
    qualifierRank: nullableCount(o.qualifierRank),
    qualifierTime: nullableNumber(o.qualifierTime),
    place: nullableCount(o.place),
    time: nullableNumber(o.time),
    status: heatStatus(o.status),
    advances: nullable(oneOf<NonNullable<HeatEntryWire["advances"]>>({ place: true, lucky: true, lower: true }))(o.advances),
  };
};

const heat = (value: unknown): HeatWire => {
  const o = fields(value);
  return {
    id: string(o.id),
    key: string(o.key),
    round: count(o.round),
    name: string(o.name),
    canonicalName: string(o.canonicalName),
    rankIndex: count(o.rankIndex),
    scheduledStart: nullableNumber(o.scheduledStart),
    ready: boolean(o.ready),
    complete: boolean(o.complete),
    entries: array(heatEntry)(o.entries),
  };
};

const round = (value: unknown): HeatGroupWire["rounds"][number] => {
  const o = fields(value);
  return { round: count(o.round), name: string(o.name), complete: boolean(o.complete), timed: boolean(o.timed), heats: array(heat)(o.heats) };
};

const ranked = (value: unknown): HeatGroupWire["ranking"][number] => {
  const o = fields(value);
  return {
    racerId: string(o.racerId),
    rank: count(o.rank),
    bib: nullableNumber(o.bib),
    name: string(o.name),
    roundReached: count(o.roundReached),
    place: nullableCount(o.place),
    status: heatStatus(o.status),
    qualifierRank: count(o.qualifierRank),
  };
};

const heatGroup = (value: unknown): HeatGroupWire => {
  const o = fields(value);
  return {
    startGroupId: string(o.startGroupId),
    name: string(o.name),
    formatKey: string(o.formatKey),
    formatName: string(o.formatName),
    rounds: array(round)(o.rounds),
    ranking: array(ranked)(o.ranking),
  };
};

const heatsView = (value: unknown): HeatsView => {
  const o = fields(value);
  return {
    version: count(o.version),
    displayPrecision: count(o.displayPrecision),
    timesShown: oneOf<HeatsView["timesShown"]>({ quali: true, heat: true })(o.timesShown),
    groups: array(heatGroup)(o.groups),
  };
};

/** As zod's discriminatedUnion: the `type` picks the one shape checked; any other type is refused. */
const message = (value: unknown): RaceServerMessage => {
  const o = fields(value);
  switch (o.type) {
    case "hello":
      return {
        type: "hello",
        race_id: string(o.race_id),
        name: string(o.name),
        server_time: number(o.server_time),
        connections: count(o.connections),
        ...optional(o, "version", string),
      };
    case "pong":
      return { type: "pong" };
    case "info":
      return { type: "info", race_id: string(o.race_id), connections: count(o.connections) };
    case "error":
      return { type: "error", message: string(o.message) };
    case "snapshot":
      return { type: "snapshot", snapshot: formatSnapshot(o.snapshot) };
    case "refresh":
      return { type: "refresh", formatId: string(o.formatId), version: string(o.version) };
    case "rows":
      return { type: "rows", formatId: string(o.formatId), from: string(o.from), version: string(o.version), rows: array(resultRow)(o.rows) };
    case "heats":
      return { type: "heats", heats: heatsView(o.heats) };
    case "announcer":
      return { type: "announcer", version: string(o.version) };
    default:
      return refuse();
  }
};

/** A parsed JSON frame as raceServerMessageSchema.safeParse would read it: the same value, or null where zod fails. */
export function readRaceServerMessage(value: unknown): RaceServerMessage | null {
  try {
    return message(value);
  } catch (error) {
    if (error === REFUSED) return null;
    throw error;
  }
}
