/**
 * Which clubs a principal may create things in on this tenant (races, registration forms): Organization
 * Admin or the area's club role, a site admin of the club's site, a System Administrator with the area's flag.
 */
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { can, type Action, type Principal } from "../../core/access/policy";
import { listReach, reachesNothing } from "../../core/access/reach";
import type { ProtectedArea } from "../../core/access/scopes";
import { clubs, type Db } from "../../schema/d1";
import type { Tenant } from "../../tenants/resolve";

const CLUB_CHOICES_LIMIT = 500;

export interface ClubChoice {
  id: string;
  name: string;
  siteId: string | null;
  timezone: string | null;
}

/** By name; a site reaches only its own clubs; the admin host creates nothing. */
export function creatableClubs(db: Db, principal: Principal, tenant: Tenant, area: ProtectedArea): Promise<ClubChoice[]> {
  return clubsWhereAllowed(db, principal, tenant, "create", area);
}

/** The clubs on this tenant where the principal may do `action` on the area's objects, by name. */
export async function clubsWhereAllowed(db: Db, principal: Principal, tenant: Tenant, action: Action, area: ProtectedArea): Promise<ClubChoice[]> {
  if (tenant.kind === "admin") return [];
  const reach = listReach(principal, action, area);
  if (reachesNothing(reach)) return [];
  const clubIds = reach.owners.get("clubs") ?? [];
  const siteIds = reach.owners.get("sites") ?? [];
  if (!reach.all && clubIds.length === 0 && siteIds.length === 0) return [];
  const owned = reach.all
    ? undefined
    : or(clubIds.length > 0 ? inArray(clubs.id, [...clubIds]) : undefined, siteIds.length > 0 ? inArray(clubs.siteId, [...siteIds]) : undefined);
  const site = tenant.kind === "site" ? tenant.siteId : null;
  const rows = await db
    .select({ id: clubs.id, name: clubs.name, siteId: clubs.siteId, timezone: clubs.timezone })
    .from(clubs)
    .where(and(owned, site === null ? undefined : eq(clubs.siteId, site)))
    .orderBy(asc(clubs.name))
    .limit(CLUB_CHOICES_LIMIT);
  // The SQL narrows; the policy decides, so the list never offers a club `can` would refuse.
  return rows.filter((club) => can(principal, action, { area, clubId: club.id, siteId: club.siteId }));
}
