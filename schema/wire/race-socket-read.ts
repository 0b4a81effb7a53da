/**
 * The browser's reader of race socket frames: accepts exactly what raceServerMessageSchema (race-socket.ts)
 * accepts and returns the same value, without zod, whose core would be 8.8 KiB gzip of the results page
 * (issues 23 and 29). The types are the schema's (type-only imports bundle nothing); a required field the
 * schema gains fails `tsc` here, and race-socket-read.test.ts checks both agree on every frame it draws.
 */
import type { RaceServerMessage, ResultRow } from "./race-socket";

export type Read<T> = (value: unknown) => T;
export type Fields = Readonly<Record<string, unknown>>;

// One shared sentinel: a refused frame is the exception, so no error object or message is built for it.
const REFUSED = new Error("race frame refused");
export const refuse = (): never => {
  throw REFUSED;
};

/** As zod's object check: anything but null or an array. */
export const fields = (value: unknown): Fields => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : refuse());
export const string: Read<string> = (value) => (typeof value === "string" ? value : refuse());
export const boolean: Read<boolean> = (value) => (typeof value === "boolean" ? value : refuse());
/** z.number(): finite only (JSON.parse reads 1e400 as Infinity). */
export const number: Read<number> = (value) => (typeof value === "number" && Number.isFinite(value) ? value : refuse());
/** z.int().check(z.nonnegative()): a safe integer from 0. */
export const count: Read<number> = (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : refuse());
export const nullable =
  <T>(read: Read<T>): Read<T | null> =>
  (value) =>
    value === null ? null : read(value);
export const array =
  <T>(read: Read<T>): Read<T[]> =>
  (value) => {
    if (!Array.isArray(value)) return refuse();
    const out: T[] = [];
    // Indexed, not map: a hole is undefined to zod, and refused.
    for (let i = 0; i < value.length; i++) out.push(read(value[i]));
    return out;
  };
/** z.enum: the values as a record typed by the schema's union, so a value added to or dropped from the schema fails `tsc`. */
export const oneOf =
  <T extends string>(values: Record<T, true>): Read<T> =>
  (value) =>
    typeof value === "string" && Object.hasOwn(values, value) ? (value as T) : refuse();
/** z.optional: an absent key stays absent, a present undefined stays present (zod's handlePropertyResult). */
export function optional<K extends string, T>(from: Fields, key: K, read: Read<T>): { [P in K]?: T } {
  if (!(key in from)) return {};
  const value = from[key];
  return { [key]: value === undefined ? undefined : read(value) } as { [P in K]?: T };
}

export const racerStatus = oneOf<ResultRow["status"]>({ dns: true, dnf: true, dsq: true, notstarted: true, oncourse: true, finished: true });
export const statusText = oneOf<ResultRow["statusText"]>({ "": true, DSQ: true, DNS: true, DNF: true });
export const nullableNumber = nullable(number);
export const nullableCount = nullable(count);
export const nullableString = nullable(string);
export const numbers = array(number);

export const split = (value: unknown): ResultRow["splits"][number] => {
  const o = fields(value);
  return { index: count(o.index), coursePointId: string(o.coursePointId), lap: count(o.lap), time: number(o.time), elapsed: number(o.elapsed) };
};

export const biathlon = (value: unknown): NonNullable<ResultRow["biathlon"]> => {
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

export const run = (value: unknown): NonNullable<ResultRow["runs"]>[number] => {
  const o = fields(value);
  return { status: racerStatus(o.status), time: nullableNumber(o.time) };
};

export const segment = (value: unknown): NonNullable<ResultRow["segments"]>[number] => {
  const o = fields(value);
  return { time: nullableNumber(o.time), runs: count(o.runs) };
};

export const resultRow = (value: unknown): ResultRow => {
  const o = fields(value);
  return {
    racerId: string(o.racerId),
    ...optional(o, "h", count),
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

/**
 * Readers of the large frames, which a page reads only if it follows them: a paged results page never gets the
 * whole format, and only the bracket pages get heats. A page names the ones it takes (`readRaceFrame`), so the
 * others stay out of its script (issue 23: the results page under 100 KiB).
 */
export interface FrameReaders {
  snapshot?: (o: Fields) => RaceServerMessage;
  /** Changes to a whole format, for the pages that hold one (they ask for them with `?patch=1`). */
  patch?: (o: Fields) => RaceServerMessage;
  heats?: (o: Fields) => RaceServerMessage;
}

/** As zod's discriminatedUnion: the `type` picks the one shape checked; any other type (or one the page does not read) is refused. */
const message = (value: unknown, readers: FrameReaders): RaceServerMessage => {
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
      return readers.snapshot ? readers.snapshot(o) : refuse();
    case "refresh":
      return { type: "refresh", formatId: string(o.formatId), version: string(o.version) };
    case "rows":
    case "window-rows":
      return {
        type: o.type,
        formatId: string(o.formatId),
        from: string(o.from),
        version: string(o.version),
        rows: array(resultRow)(o.rows),
        ...optional(o, "fell", array(string)),
      };
    case "patch":
      return readers.patch ? readers.patch(o) : refuse();
    case "heats":
      return readers.heats ? readers.heats(o) : refuse();
    case "announcer":
      return { type: "announcer", version: string(o.version) };
    default:
      return refuse();
  }
};

/**
 * A parsed JSON frame as raceServerMessageSchema.safeParse would read it (the same value, or null where zod
 * fails), for a page that reads the small frames and the large ones it names; others are null. With every
 * reader (race-socket-read-all.ts) it reads what the schema reads.
 */
export function readRaceFrame(value: unknown, readers: FrameReaders): RaceServerMessage | null {
  try {
    return message(value, readers);
  } catch (error) {
    if (error === REFUSED) return null;
    throw error;
  }
}
