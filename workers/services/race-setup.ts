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
import { deleteStatement, getEntity, insertStatement } from "../data-api/entity-store";
import { createdHistory, deletedHistory, pageAuthor } from "./entity-history";
import { publishChange, type PublishContext } from "../data-api/hub-client";
import { discardRace, ensureRaceOpen } from "../data-api/race-store";
import { creatableClubs } from "./club-choices";
import { isTimeZone } from "../../core/time/wall-clock";
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
  await context.db.batch([
    insertStatement(context.db, Race, id, values, initialMtimes(values, context.now), context.now),
    ...createdHistory(context.db, Race, id, values, { userId: principal.userId, appId: null, at: context.now }),
  ]);
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
  context: PublishContext & { db: Db; userId?: string | null },
  race: RaceCatalogue,
  room: { deletionBlocker(): Promise<string | null> },
): Promise<DeleteRaceResult> {
  const blocker = await room.deletionBlocker();
  if (blocker) return { ok: false, message: blocker };
  const stored = await getEntity(context.db, Race, race.id);
  await context.db.batch([
    deleteStatement(context.db, Race, race.id),
    ...deletedHistory(context.db, Race, race.id, stored?.row ?? { name: race.name }, pageAuthor(context)),
  ]);
  await discardRace(context, race.id);
  if (stored) publishChange(context, Race, race.id, { fields: {}, field_mtimes: {}, deleted: true }, protectedObjectOf(Race, stored.row));
  return { ok: true };
}

/** Every zone the runtime knows, for a select; the default zone is always among them. */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return names.includes(DEFAULT_RACE_TIMEZONE) ? names : [...names, DEFAULT_RACE_TIMEZONE].sort();
}
