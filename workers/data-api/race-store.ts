/**
 * Race entities live in their RaceRoom (the single writer of a race); D1 holds the catalogue copy that lists,
 * searches and access checks read. Reads of one race and every change are routed to its RaceRoom.
 */
import type { FieldMtimes } from "../../core/entity/field-mtimes";
import type { RaceChangeResult } from "../../schema/race/entity";
import type { RequestContext } from "../request-context";
import type { StoredEntity } from "./entity-store";

function roomFor(context: Pick<RequestContext, "env">, raceId: string) {
  return context.env.RACE_ROOM.get(context.env.RACE_ROOM.idFromName(raceId));
}

/** Opens the race's RaceRoom from its catalogue row if it has not been opened yet (races made before it existed). */
export async function ensureRaceOpen(context: Pick<RequestContext, "env">, catalogue: StoredEntity) {
  const row = catalogue.row;
  const room = roomFor(context, row.uuid);
  await room.open({
    id: row.uuid,
    clubId: String(row.club),
    name: String(row.name),
    startTime: Number(row.start_time),
    timezone: String(row.timezone),
    siteId: (row.site as string | null) ?? null,
    sport: (row.sport as string | null) ?? null,
    endTime: (row.end_time as number | null) ?? null,
    location: (row.location as string | null) ?? null,
    visibility: row.visibility as "public" | "unlisted" | "private",
    fieldMtimes: catalogue.mtimes,
  });
  return room;
}

/** The race as its RaceRoom holds it. */
export async function readRace(context: Pick<RequestContext, "env">, catalogue: StoredEntity): Promise<StoredEntity> {
  const room = await ensureRaceOpen(context, catalogue);
  const entity = await room.raceEntity();
  return entity ? { row: entity.row, mtimes: entity.mtimes, version: catalogue.version } : catalogue;
}

export async function changeRace(
  context: Pick<RequestContext, "env">,
  catalogue: StoredEntity,
  changes: Record<string, unknown>,
  base: FieldMtimes | undefined,
): Promise<RaceChangeResult | null> {
  const room = await ensureRaceOpen(context, catalogue);
  return room.changeRace(changes, base ?? null);
}

/** Why the race may not be deleted now, or null. */
export async function raceDeletionBlocker(context: Pick<RequestContext, "env">, catalogue: StoredEntity): Promise<string | null> {
  return (await ensureRaceOpen(context, catalogue)).deletionBlocker();
}

export async function discardRace(context: Pick<RequestContext, "env">, raceId: string): Promise<void> {
  await roomFor(context, raceId).discard();
}
