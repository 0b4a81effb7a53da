/** The Race as the data service shows it, read from and written to a RaceRoom's `race_setup` row. */
import * as z from "zod";
import type { FieldMtimes } from "../../core/entity/field-mtimes";
import { Race } from "../entities/classes";
import type { raceSetup } from "./tables";

/** Race field values are plain text, numbers or null, so they cross the RPC boundary as they are. */
export type RaceValue = string | number | null;
export type RaceRow = Record<string, RaceValue> & { uuid: string };

export interface RaceEntity {
  row: RaceRow;
  mtimes: FieldMtimes;
}

export type RaceChangeResult =
  | { ok: true; changed: Record<string, RaceValue>; mtimes: FieldMtimes; row: Record<string, RaceValue> }
  | { ok: false; stale: string[]; row: Record<string, RaceValue>; mtimes: FieldMtimes };

/** API names of the Race fields the RaceRoom holds (the registry's Race class uses the same names). */
export function raceRowOf(row: typeof raceSetup.$inferSelect): RaceRow {
  return {
    uuid: row.id,
    created_time: row.createdAt,
    club: row.clubId,
    site: row.siteId,
    name: row.name,
    sport: row.sport,
    start_time: row.startTime,
    end_time: row.endTime,
    timezone: row.timezone,
    location: row.location,
    visibility: row.visibility,
  };
}

/** Race field (API name) -> its race_setup column property, for the fields a client may change. */
export const raceColumnOf = {
  name: "name",
  sport: "sport",
  start_time: "startTime",
  end_time: "endTime",
  timezone: "timezone",
  location: "location",
  visibility: "visibility",
} as const satisfies Record<string, keyof typeof raceSetup.$inferInsert>;

/**
 * The writable Race fields, checked again by the RaceRoom because it is their only writer: the registry's own
 * field rules (schema/entities/classes.ts), so the Worker and the RaceRoom cannot disagree.
 */
export const raceChangesSchema = z
  .object(Object.fromEntries(Race.fields.filter((f) => f.writable).map((f) => [f.api, f.schema.optional()])))
  .strict()
  .refine((changes) => Object.keys(changes).every((key) => key in raceColumnOf), { error: "A Race field the RaceRoom does not hold" });
