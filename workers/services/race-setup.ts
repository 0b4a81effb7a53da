/**
 * The race setup services the race administration pages call: which clubs a user may create races in,
 * creating a race (the data service's registry row, then its RaceRoom), deleting one, and reading and
 * writing wall-clock times in the race's own time zone.
 */
import type { Principal } from "../../core/access/policy";
import { initialMtimes } from "../../core/entity/field-mtimes";
import type { Db } from "../../schema/d1";
import { Race } from "../../schema/entities/classes";
import { protectedObjectOf } from "../../schema/entities/registry";
import type { Tenant } from "../../tenants/resolve";
import { deleteEntity, getEntity, insertEntity } from "../data-api/entity-store";
import { publishChange, type PublishContext } from "../data-api/hub-client";
import { discardRace, ensureRaceOpen } from "../data-api/race-store";
import { creatableClubs } from "./club-choices";
import type { RaceCatalogue } from "./race-access";

/** The zone a new race gets when its club has none (the platform's home zone). */
export const DEFAULT_RACE_TIMEZONE = "America/Toronto";

export interface RaceClubChoice {
  id: string;
  name: string;
  siteId: string | null;
  timezone: string;
}

/** The clubs the principal may create races in here, each with a usable time zone. */
export async function creatableRaceClubs(db: Db, principal: Principal, tenant: Tenant): Promise<RaceClubChoice[]> {
  const choices = await creatableClubs(db, principal, tenant, "races");
  return choices.map((club) => ({ ...club, timezone: club.timezone && isTimeZone(club.timezone) ? club.timezone : DEFAULT_RACE_TIMEZONE }));
}

export interface NewRace {
  club: string;
  name: string;
  sport: string | null;
  /** Epoch milliseconds. */
  startTime: number;
  timezone: string;
}

export type CreateRaceResult = { ok: true; id: string } | { ok: false; errors: Record<string, string> };

/**
 * Creates a race as the data service does (POST /data-api/Race): the catalogue row through the registry,
 * with the club's site copied onto it, then its RaceRoom opened from that row. New races start private, so
 * nothing shows publicly before the organiser says so.
 */
export async function createRace(context: PublishContext & { db: Db }, principal: Principal, input: NewRace): Promise<CreateRaceResult> {
  const choices = await creatableRaceClubs(context.db, principal, context.tenant);
  const club = choices.find((c) => c.id === input.club);
  if (!club) return { ok: false, errors: { club: "Choose one of the listed clubs" } };
  const values: Record<string, unknown> = {
    club: club.id,
    site: club.siteId,
    name: input.name,
    sport: input.sport,
    start_time: input.startTime,
    end_time: null,
    timezone: input.timezone,
    location: null,
    visibility: "private",
  };
  for (const field of Race.fields) {
    if (!(field.api in values) || field.api === "site") continue;
    const parsed = field.schema.safeParse(values[field.api]);
    if (!parsed.success) return { ok: false, errors: { [field.api]: parsed.error.issues[0]?.message ?? "Invalid value" } };
  }
  const id = crypto.randomUUID();
  await insertEntity(context.db, Race, id, values, initialMtimes(values, context.now), context.now);
  const stored = await getEntity(context.db, Race, id);
  if (!stored) return { ok: false, errors: { form: "The race could not be created. Please try again." } };
  await ensureRaceOpen(context, stored);
  return { ok: true, id };
}

export type DeleteRaceResult = { ok: true } | { ok: false; message: string };

/**
 * Deletes a race: refused while it has public results or a visible start list (timing.md section 4, the
 * RaceRoom's own check); otherwise the catalogue row goes first, so no list shows it, then its RaceRoom
 * forgets everything, and data-service subscribers hear that it is gone.
 */
export async function deleteRace(
  context: PublishContext & { db: Db },
  race: RaceCatalogue,
  room: { deletionBlocker(): Promise<string | null> },
): Promise<DeleteRaceResult> {
  const blocker = await room.deletionBlocker();
  if (blocker) return { ok: false, message: blocker };
  const stored = await getEntity(context.db, Race, race.id);
  await deleteEntity(context.db, Race, race.id);
  await discardRace(context, race.id);
  if (stored) publishChange(context, Race, race.id, { fields: {}, field_mtimes: {}, deleted: true }, protectedObjectOf(Race, stored.row));
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------------------
// Wall-clock times in a race's zone (the datetime-local inputs)

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows the IANA zone name. */
export function isTimeZone(name: string): boolean {
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** Every zone the runtime knows, for a select; the default zone is always among them. */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return names.includes(DEFAULT_RACE_TIMEZONE) ? names : [...names, DEFAULT_RACE_TIMEZONE].sort();
}

function wallClock(epochMs: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour === 24 ? 0 : (parts.hour ?? 0),
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant as a datetime-local value ("2026-06-01T09:30") on the wall clock of `timeZone`. */
export function localInputOf(epochMs: number, timeZone: string): string {
  const p = wallClock(epochMs, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * The instant a datetime-local value names on the wall clock of `timeZone`, or null when it is not one.
 * A wall time skipped by a DST change reads as the same time an hour later, as clocks do.
 */
export function epochOfLocalInput(text: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((v) => Number(v ?? 0)) as number[];
  const naive = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const check = new Date(naive);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59) return null;
  const offsetAt = (instant: number) => {
    const p = wallClock(instant, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
  };
  // The offset at the guess may differ from the one at the naive time near a DST change; a second pass settles it.
  const first = naive - offsetAt(naive);
  return naive - offsetAt(first);
}
