import type { AppLoadContext } from "@remix-run/cloudflare";
import * as z from "zod";
import { openDb } from "../schema/d1";
import { getRaceCatalogue } from "../workers/services/race-access";
import { getRaceForTenant } from "../workers/services/races";

/**
 * A race's public pages (results, heats, start list) on this host: its listing and catalogue row, or a 404
 * for a race that is not public or unlisted here (or not a race at all).
 */
export async function requirePublicRace(context: AppLoadContext, rawRaceId: string | undefined) {
  const db = openDb(context.env.DB);
  const raceId = z.uuid().safeParse(rawRaceId);
  const listing = raceId.success ? await getRaceForTenant(db, context.tenant, raceId.data) : null;
  const race = listing ? await getRaceCatalogue(db, context.tenant, listing.id) : null;
  if (!listing || !race) throw new Response("Not found", { status: 404 });
  return { db, listing, race };
}
