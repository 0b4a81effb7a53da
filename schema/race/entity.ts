/** The Race as the data service shows it, read from and written to a RaceRoom's `race_setup` row. */
import { z } from "zod";
import type { FieldMtimes } from "../../core/entity/field-mtimes";
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

const epochMs = z.number().int().min(0).max(8_640_000_000_000_000);

/** The writable Race fields, checked again by the RaceRoom because it is their only writer. */
export const raceChangesSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    sport: z.string().trim().max(200).nullable(),
    start_time: epochMs,
    end_time: epochMs.nullable(),
    timezone: z.string().min(1).max(64),
    location: z.string().trim().max(200).nullable(),
    visibility: z.enum(["public", "unlisted", "private"]),
  })
  .partial()
  .strict();
