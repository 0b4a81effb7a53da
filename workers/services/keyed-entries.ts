/**
 * The Keyed entries page's lines: a race's keyed entries (durable/race/keyed-entries.ts) in words, with who keyed
 * each — a timer by name, a serverbox by its name, a box's phone as "Finish phone via Finish tent box" (decision 0089).
 * Names come from the race's own club only: a keyer id that is not one of its boxes is not named from another club.
 */
import { and, eq, inArray } from "drizzle-orm";
import { missesText } from "../../core/timing/biathlon";
import { formatTimeOfDay } from "../../core/time/format";
import { wallClockOf } from "../../core/time/wall-clock";
import type { KeyedEntry } from "../../durable/race/keyed-entries";
import { serverboxes, users, type Db } from "../../schema/d1";
import { raceDayOf } from "../../schema/race/settings";
import { SERVERBOX_KEYER } from "../../schema/wire/manual-entry";

export interface KeyedEntryLine {
  key: string;
  /** When the platform received it, in the race's time zone; with its date when that is not the race's day. */
  received: string;
  bib: string;
  racer: string;
  /** The racer's id, for a link to their page (where a wrong entry is put right). */
  racerId: string | null;
  what: string;
  who: string;
  /** Set when the entry names no racer now. */
  problem: string | null;
}

interface RaceNames {
  clubId: string;
  timezone: string;
  /** The race's start (epoch ms): an entry received on another day shows its date. */
  startTime: number;
  points: ReadonlyMap<string, string>;
  devices: ReadonlyMap<string, string>;
}

const STATUS_WORDS = { dns: "DNS", dnf: "DNF", dsq: "DSQ", ok: "Status cleared" } as const;

/** A keyer id split into what it names. */
function keyerParts(by: string): { box: string; keypad: string | null } | null {
  if (!by.startsWith(SERVERBOX_KEYER)) return null;
  const [box, keypad] = by.slice(SERVERBOX_KEYER.length).split("/", 2);
  return box ? { box, keypad: keypad ?? null } : null;
}

export async function keyedEntryLines(db: Db, race: RaceNames, entries: readonly KeyedEntry[]): Promise<KeyedEntryLine[]> {
  const who = await keyerNames(
    db,
    race.clubId,
    entries.map((e) => e.by).filter((by): by is string => by !== null),
  );
  const raceDay = raceDayOf(race.startTime, race.timezone);
  return entries.map((entry) => ({
    key: entry.key,
    received: receivedText(entry.receivedAt, race.timezone, raceDay),
    bib: entry.bib !== null ? String(entry.bib) : entry.chip !== null ? `chip ${entry.chip}` : "",
    racer: entry.racer?.name ?? "",
    racerId: entry.racer?.id ?? null,
    what: whatOf(entry, race),
    who: entry.by !== null ? (who.get(entry.by) ?? "a former user") : `Range device ${race.devices.get(entry.deviceId ?? "") ?? "(deleted)"}`,
    problem: entry.racer !== null ? null : entry.chip !== null ? `No racer has chip ${entry.chip}` : `No racer has bib ${entry.bib ?? ""}`,
  }));
}

function whatOf(entry: KeyedEntry, race: RaceNames): string {
  const what = entry.what;
  switch (what.kind) {
    case "time": {
      const at = what.tod ?? (what.time !== null ? clockOf(what.time / 1000, race.timezone, what.time % 1_000_000) : "");
      return `Time at ${race.points.get(what.pointId) ?? "a deleted timing point"}: ${at}`;
    }
    case "status":
      return `${STATUS_WORDS[what.status]}${what.run === null ? "" : ` in run ${what.run}`}`;
    case "range":
      return `${missesText(what.misses)} at shooting ${what.shooting}`;
    case "unreadable":
      return "An entry this version cannot show";
  }
}

/** The time received, with its date when that is not the race's day (an entry keyed at a rehearsal, or the day after). */
function receivedText(epochMs: number, timeZone: string, raceDay: string): string {
  const day = raceDayOf(epochMs, timeZone);
  return day === raceDay ? clockOf(epochMs, timeZone) : `${day} ${clockOf(epochMs, timeZone)}`;
}

/** HH:MM:SS in the zone, with tenths when `micros` (the part of a second) is given: the race clock's own format. */
function clockOf(epochMs: number, timeZone: string, micros?: number): string {
  const c = wallClockOf(Math.floor(epochMs), timeZone);
  const sinceMidnight = ((c.hour * 60 + c.minute) * 60 + c.second) * 1_000_000 + (micros ?? 0);
  return formatTimeOfDay(sinceMidnight, micros === undefined ? 0 : 1);
}

/** Every keyer's name: people by name (or e-mail), the club's boxes and their phones from its servers list. */
async function keyerNames(db: Db, clubId: string, keyers: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(keyers)];
  const boxParts = unique.map((by) => [by, keyerParts(by)] as const);
  const userIds = boxParts.filter(([, parts]) => parts === null).map(([by]) => by);
  const boxIds = [...new Set(boxParts.flatMap(([, parts]) => (parts ? [parts.box] : [])))];
  const phoneSerials = boxParts.flatMap(([, parts]) => (parts?.keypad ? [`${parts.box}/${parts.keypad}`] : []));
  const [people, boxes, phones] = await Promise.all([
    userIds.length === 0 ? [] : db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, userIds)),
    boxIds.length === 0
      ? []
      : db
          .select({ id: serverboxes.id, name: serverboxes.name })
          .from(serverboxes)
          .where(and(eq(serverboxes.clubId, clubId), inArray(serverboxes.id, boxIds))),
    phoneSerials.length === 0
      ? []
      : db
          .select({ serial: serverboxes.serial, name: serverboxes.name })
          .from(serverboxes)
          .where(and(eq(serverboxes.clubId, clubId), eq(serverboxes.subtype, "webclient"), inArray(serverboxes.serial, phoneSerials))),
  ]);
  const names = new Map<string, string>(people.map((p) => [p.id, p.name || p.email]));
  const boxNames = new Map(boxes.map((b) => [b.id, b.name]));
  const phoneNames = new Map(phones.map((p) => [p.serial, p.name]));
  for (const [by, parts] of boxParts) {
    if (!parts) continue;
    const box = boxNames.get(parts.box);
    if (box === undefined) names.set(by, "a serverbox no longer paired");
    else if (parts.keypad === null) names.set(by, `${box} (serverbox)`);
    else names.set(by, `${phoneNames.get(`${parts.box}/${parts.keypad}`) ?? "a phone"} via ${box}`);
  }
  return names;
}
