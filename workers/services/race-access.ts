/**
 * Who may do what to a race, for the timing API and the race pages: the D1 catalogue row (scoped to the
 * tenant) and the caller's roles through the one access policy (core/access/policy.ts).
 */
import { and, eq, inArray } from "drizzle-orm";
import { RecentAnswers } from "../../core/memo/recent-answers";
import { can, type Action, type Principal } from "../../core/access/policy";
import { clubs, races, type Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";
import { loadRoles } from "../auth/roles";
import type { ValidSession } from "../auth/sessions";

export interface RaceCatalogue {
  id: string;
  clubId: string;
  siteId: string | null;
  name: string;
  clubName: string;
  startTime: number;
  endTime: number | null;
  timezone: string;
  location: string | null;
  sport: string | null;
  visibility: "public" | "unlisted" | "private";
  /** How many spectator shards the race's audience is spread over (its RaceRoom grows it). */
  spectatorShards: number;
}

export const catalogueColumns = {
  id: races.id,
  clubId: races.clubId,
  siteId: races.siteId,
  name: races.name,
  clubName: clubs.name,
  startTime: races.startTime,
  endTime: races.endTime,
  timezone: races.timezone,
  location: races.location,
  sport: races.sport,
  visibility: races.visibility,
  spectatorShards: races.spectatorShards,
};

/** A race of this tenant whatever its visibility (a site reaches only its own races; the admin host none). */
export async function getRaceCatalogue(db: Db, tenant: Tenant, raceId: string): Promise<RaceCatalogue | null> {
  if (tenant.kind === "admin") return null;
  const scope = tenant.kind === "site" ? and(eq(races.id, raceId), eq(races.siteId, tenant.siteId)) : eq(races.id, raceId);
  const [race] = await db.select(catalogueColumns).from(races).innerJoin(clubs, eq(clubs.id, races.clubId)).where(scope).limit(1);
  return race ?? null;
}

// Device batches of a race this isolate has just found, for a few seconds: a finish line posts several a second,
// and each would otherwise wait for a D1 read. Only rows found are kept, so a new race is seen at once and a
// made-up id always asks D1 (no RaceRoom is made for it). A kept row only routes a batch to its room, which
// checks the device's credential itself; reopening a room always reads D1 afresh (postFromDevice).
const deviceCatalogue = new RecentAnswers<RaceCatalogue>(5_000, 1_000);

/** getRaceCatalogue for device batches: the same row and tenant scope, remembered for a few seconds. */
export async function getDeviceRaceCatalogue(db: Db, tenant: Tenant, raceId: string, now: number): Promise<RaceCatalogue | null> {
  const key = `${tenant.kind}|${tenant.kind === "site" ? tenant.siteId : ""}|${raceId}`;
  const kept = deviceCatalogue.get(key, now);
  if (kept) return kept;
  const race = await getRaceCatalogue(db, tenant, raceId);
  if (race) deviceCatalogue.set(key, race, now);
  else deviceCatalogue.delete(key);
  return race;
}

/** A race of one club, wherever the caller is: for links the club itself made (a registration form's race). */
export async function getClubRaceCatalogue(db: Db, clubId: string, raceId: string): Promise<RaceCatalogue | null> {
  const [race] = await db
    .select(catalogueColumns)
    .from(races)
    .innerJoin(clubs, eq(clubs.id, races.clubId))
    .where(and(eq(races.id, raceId), eq(races.clubId, clubId)))
    .limit(1);
  return race ?? null;
}

/** The races of one club among `raceIds` (a points series' member races). */
export async function getClubRaceCatalogues(db: Db, clubId: string, raceIds: readonly string[]): Promise<RaceCatalogue[]> {
  if (raceIds.length === 0) return [];
  return db
    .select(catalogueColumns)
    .from(races)
    .innerJoin(clubs, eq(clubs.id, races.clubId))
    .where(and(eq(races.clubId, clubId), inArray(races.id, [...raceIds])));
}

/** The races of this tenant among `raceIds`, whatever their visibility (callers filter with maySeeRace). */
export async function getRaceCatalogues(db: Db, tenant: Tenant, raceIds: readonly string[]): Promise<RaceCatalogue[]> {
  if (tenant.kind === "admin" || raceIds.length === 0) return [];
  const ids = inArray(races.id, [...raceIds]);
  const scope = tenant.kind === "site" ? and(ids, eq(races.siteId, tenant.siteId)) : ids;
  return db.select(catalogueColumns).from(races).innerJoin(clubs, eq(clubs.id, races.clubId)).where(scope);
}

export async function principalOf(db: Db, session: ValidSession | null): Promise<Principal | null> {
  if (!session) return null;
  return { userId: session.user.id, roles: await loadRoles(db, session.user.id), activeRoleId: session.activeRoleId };
}

export function canOnRace(principal: Principal | null, action: Action, race: Pick<RaceCatalogue, "id" | "clubId" | "siteId">): boolean {
  return principal !== null && can(principal, action, { area: "races", id: race.id, raceId: race.id, clubId: race.clubId, siteId: race.siteId });
}

/** Whether a principal may know a race (its name, its club): public and unlisted races anyone; a private one only those whose roles may view it. */
export function maySeeRace(principal: Principal | null, race: Pick<RaceCatalogue, "id" | "clubId" | "siteId" | "visibility">): boolean {
  return race.visibility !== "private" || canOnRace(principal, "view", race);
}

/** System result formats (announcer, live) are for race staff; timing.md section 6. */
export function canSeeSystemFormats(principal: Principal | null, race: Pick<RaceCatalogue, "id" | "clubId" | "siteId">): boolean {
  return (["announce", "view_private_results", "time", "edit"] as const).some((action) => canOnRace(principal, action, race));
}

export function isSystemFormat(format: { is_announcer: boolean; is_live: boolean; is_public: boolean; is_unlisted: boolean }): boolean {
  return !format.is_public && !format.is_unlisted;
}

/** The race's RaceRoom, without checking that it was opened. */
export function roomStub(env: Env, raceId: string) {
  return env.RACE_ROOM.get(env.RACE_ROOM.idFromName(raceId));
}

/** A race room, opened from its catalogue row if it was never opened. */
export async function roomOf(env: Env, race: RaceCatalogue) {
  const room = roomStub(env, race.id);
  await room.open({
    id: race.id,
    clubId: race.clubId,
    name: race.name,
    startTime: race.startTime,
    timezone: race.timezone,
    siteId: race.siteId,
    sport: race.sport,
    endTime: race.endTime,
    location: race.location,
    visibility: race.visibility,
  });
  return room;
}
