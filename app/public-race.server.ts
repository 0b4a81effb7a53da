import type { AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { openDb, openReplicaDb } from "../schema/d1";
import { getPublicRace } from "../workers/services/races";

/**
 * A race's public pages (results, heats, start list) on this host: its listing and catalogue row, or a 404
 * for a race that is not public or unlisted here (or not a race at all).
 */
export async function requirePublicRace(context: AppLoadContext, rawRaceId: string | undefined) {
  const db = openDb(context.env.DB);
  const raceId = z.uuid().safeParse(rawRaceId);
  // From a nearby replica: every reader of a results page asks this, often all at once (decision 0093).
  const found = raceId.success ? await getPublicRace(openReplicaDb(context.env.DB), context.tenant, raceId.data) : null;
  if (!found) throw new Response("Not found", { status: 404 });
  return { db, ...found };
}

/** Racer and format ids in a public page's address: uuids or short keys; anything else is no page (null), not an error. */
export function routeIdOf(raw: string | null | undefined): string | null {
  const id = z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .safeParse(raw);
  return id.success ? id.data : null;
}
