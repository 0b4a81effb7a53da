import { and, asc, eq, gte, inArray, like, or } from "drizzle-orm";
import { clubs, races, type Db, type ReadDb } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { catalogueColumns, type RaceCatalogue } from "./race-access";
import { racesWithActivity } from "./activity-tags";

export interface RaceListing {
  id: string;
  name: string;
  sport: string | null;
  startTime: number;
  timezone: string;
  location: string | null;
  clubName: string;
}

const listingColumns = {
  id: races.id,
  name: races.name,
  sport: races.sport,
  startTime: races.startTime,
  timezone: races.timezone,
  location: races.location,
  clubName: clubs.name,
};

/** A race is upcoming until the end of its day: one that started this morning is still listed. */
const LISTED_AFTER_START_MS = 24 * 60 * 60 * 1000;

/** The earliest start a list still shows at `now`. */
export const listedSince = (now: number) => now - LISTED_AFTER_START_MS;

/** Public races of one whitelabel site from today on, soonest first; with an activity, only races tagged with it. */
export async function listUpcomingSiteRaces(db: Db, siteId: string, now: number, limit = 50, activityId: string | null = null): Promise<RaceListing[]> {
  const tagged = activityId ? inArray(races.id, racesWithActivity(db, activityId)) : undefined;
  return db
    .select(listingColumns)
    .from(races)
    .innerJoin(clubs, eq(clubs.id, races.clubId))
    .where(and(eq(races.siteId, siteId), eq(races.visibility, "public"), gte(races.startTime, listedSince(now)), tagged))
    .orderBy(asc(races.startTime), asc(races.name))
    .limit(limit);
}

/** Public races on the whole platform from today on, optionally matching a search over race, club and place. */
export async function listUpcomingPublicRaces(db: Db, now: number, query: string, limit = 50): Promise<RaceListing[]> {
  const term = query.trim();
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const search = term ? or(like(races.name, pattern), like(clubs.name, pattern), like(races.location, pattern)) : undefined;
  return db
    .select(listingColumns)
    .from(races)
    .innerJoin(clubs, eq(clubs.id, races.clubId))
    .where(and(eq(races.visibility, "public"), gte(races.startTime, now - LISTED_AFTER_START_MS), search))
    .orderBy(asc(races.startTime), asc(races.name))
    .limit(limit);
}

/**
 * One race as a tenant may show it: a site shows only its own races; the main host shows public and
 * unlisted races of any site. Private races are for signed-in staff (later issues), never here.
 */
export async function getRaceForTenant(db: Db, tenant: Tenant, raceId: string): Promise<(RaceListing & { clubId: string }) | null> {
  return (await getPublicRace(db, tenant, raceId))?.listing ?? null;
}

/**
 * getRaceForTenant with the race's catalogue row, in one read: every public race page and each fetch of a results
 * page asks for both, and after a DNF a whole crowd fetches at once (decision 0087).
 */
export async function getPublicRace(
  db: ReadDb,
  tenant: Tenant,
  raceId: string,
): Promise<{ listing: RaceListing & { clubId: string }; race: RaceCatalogue } | null> {
  if (tenant.kind === "admin") return null;
  const visible = inArray(races.visibility, ["public", "unlisted"]);
  const scope = tenant.kind === "site" ? and(eq(races.id, raceId), eq(races.siteId, tenant.siteId), visible) : and(eq(races.id, raceId), visible);
  const [found] = await db
    .select({ listing: { ...listingColumns, clubId: races.clubId }, race: catalogueColumns })
    .from(races)
    .innerJoin(clubs, eq(clubs.id, races.clubId))
    .where(scope)
    .limit(1);
  return found ?? null;
}
