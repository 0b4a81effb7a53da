/**
 * Points series on a site (issue 27): which series a hostname reaches (a site its own, the main host any,
 * the admin host none), who sees one (anyone when public, else whose roles may view the series' area,
 * platform.md section 6 "All Races (pointsseries)"), and the points file an organiser uploads.
 */
import { and, asc, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { can, type Action, type Principal } from "../../core/access/policy";
import { readPointsFile, writePointsFile } from "../../core/series/points-file";
import { clubs, pointsSeries, pointsSystems, type Db } from "../../schema/d1";
import type { LinkedPointsSystem } from "../../schema/wire/series-config";
import type { Tenant } from "../../tenants/resolve";

export interface SeriesListing {
  id: string;
  clubId: string;
  siteId: string | null;
  clubName: string;
  name: string;
  year: number | null;
  isPublic: boolean;
  url: string | null;
  config: unknown;
  lastPointsFile: string | null;
}

const columns = {
  id: pointsSeries.id,
  clubId: pointsSeries.clubId,
  siteId: pointsSeries.siteId,
  clubName: clubs.name,
  name: pointsSeries.name,
  year: pointsSeries.year,
  isPublic: pointsSeries.isPublic,
  url: pointsSeries.url,
  config: pointsSeries.config,
  lastPointsFile: pointsSeries.lastPointsFile,
};

function tenantScope(tenant: Tenant): SQL | undefined | null {
  if (tenant.kind === "admin") return null;
  return tenant.kind === "site" ? eq(pointsSeries.siteId, tenant.siteId) : undefined;
}

export function canOnSeries(principal: Principal | null, action: Action, series: Pick<SeriesListing, "id" | "clubId" | "siteId">): boolean {
  return principal !== null && can(principal, action, { area: "pointsseries", id: series.id, clubId: series.clubId, siteId: series.siteId });
}

export const maySeeSeries = (principal: Principal | null, series: SeriesListing) => series.isPublic || canOnSeries(principal, "view", series);

/** The tenant's series the principal may see, newest season first. */
export async function listSeries(db: Db, tenant: Tenant, principal: Principal | null): Promise<SeriesListing[]> {
  const scope = tenantScope(tenant);
  if (scope === null) return [];
  const rows = await db
    .select(columns)
    .from(pointsSeries)
    .innerJoin(clubs, eq(clubs.id, pointsSeries.clubId))
    .where(scope)
    .orderBy(desc(pointsSeries.year), asc(pointsSeries.name))
    .limit(500);
  return rows.filter((s) => maySeeSeries(principal, s));
}

/** The last segment of a series' address, so /series/spring-cup finds the series whose url ends in spring-cup. */
export function slugOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).pathname.split("/").filter(Boolean).pop()?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

/** A series of the tenant by id or by its address's last segment; null when absent or hidden from the principal. */
export async function findSeries(db: Db, tenant: Tenant, key: string | undefined, principal: Principal | null): Promise<SeriesListing | null> {
  const scope = tenantScope(tenant);
  if (scope === null || !key || key.length > 200) return null;
  const [byId] = await db
    .select(columns)
    .from(pointsSeries)
    .innerJoin(clubs, eq(clubs.id, pointsSeries.clubId))
    .where(and(scope, eq(pointsSeries.id, key)))
    .limit(1);
  const series =
    byId ??
    (await db.select(columns).from(pointsSeries).innerJoin(clubs, eq(clubs.id, pointsSeries.clubId)).where(scope).limit(500)).find(
      (s) => slugOf(s.url) === key.toLowerCase(),
    );
  return series && maySeeSeries(principal, series) ? series : null;
}

export type PointsFileReply = { ok: true; rows: number } | { ok: false; errors: string[] };

/** Replaces the series' points file with an uploaded one, whole or not at all; the same file twice is the same file. */
export async function savePointsFile(db: Db, series: Pick<SeriesListing, "id" | "clubId">, text: string, now = Date.now()): Promise<PointsFileReply> {
  const read = readPointsFile(text);
  if (!read.ok) return read;
  await db
    .update(pointsSeries)
    .set({ lastPointsFile: writePointsFile(read.rows), fieldMtimes: sql`json_set(${pointsSeries.fieldMtimes}, '$.last_points_file', ${now})` })
    .where(and(eq(pointsSeries.id, series.id), eq(pointsSeries.clubId, series.clubId)));
  return { ok: true, rows: read.rows.length };
}

/** Takes the carried points out of the standings. */
export async function clearPointsFile(db: Db, series: Pick<SeriesListing, "id" | "clubId">, now = Date.now()): Promise<void> {
  await db
    .update(pointsSeries)
    .set({ lastPointsFile: null, fieldMtimes: sql`json_set(${pointsSeries.fieldMtimes}, '$.last_points_file', ${now})` })
    .where(and(eq(pointsSeries.id, series.id), eq(pointsSeries.clubId, series.clubId)));
}

/** A points system a series of `clubId` may use: the club's own or a platform-wide one. */
export async function findPointsSystem(db: Db, clubId: string, id: string): Promise<LinkedPointsSystem | null> {
  const [row] = await db
    .select({
      method: pointsSystems.method,
      pointsTable: pointsSystems.pointsTable,
      formula: pointsSystems.formula,
      bestOf: pointsSystems.bestOf,
      ties: pointsSystems.ties,
      scalePerRace: pointsSystems.scalePerRace,
    })
    .from(pointsSystems)
    .where(and(eq(pointsSystems.id, id), or(eq(pointsSystems.clubId, clubId), isNull(pointsSystems.clubId))))
    .limit(1);
  return row ?? null;
}
