/**
 * The guard and data of the membership pages (`/org/{division}/home` and its CSV): a division the caller may
 * see reports of (Division Reports, Organization Admin, a System Administrator with the divisions flag), and
 * whether they may also change its seasons. A club's id in the address lists the club's divisions instead,
 * because the Division Reports role is given on a club.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { asc, eq } from "drizzle-orm";
import { can, type Principal } from "../../core/access/policy";
import { clubs, divisions, openDb } from "../../schema/d1";
import { loadRoles } from "../../workers/auth/roles";
import { requireSession } from "../auth.server";

export async function requireDivisionAccess(request: Request, context: AppLoadContext, id: string) {
  const session = requireSession(request, context);
  const db = openDb(context.env.DB);
  const principal: Principal = { userId: session.user.id, roles: await loadRoles(db, session.user.id), activeRoleId: session.activeRoleId };
  const [division] = await db.select().from(divisions).where(eq(divisions.id, id)).limit(1);
  const [club] = division ? [] : await db.select({ id: clubs.id, name: clubs.name, siteId: clubs.siteId }).from(clubs).where(eq(clubs.id, id)).limit(1);
  const owner = division ? { clubId: division.clubId, siteId: division.siteId } : club ? { clubId: club.id, siteId: club.siteId } : null;
  if (!owner) throw new Response("Not found", { status: 404 });
  const object = { area: "divisions" as const, id: division?.id, ...owner };
  if (!can(principal, "view_reports", object) && !can(principal, "view", object)) throw new Response("Forbidden", { status: 403 });
  const mayEdit = can(principal, "edit", object);
  const mayCreate = can(principal, "create", { area: "divisions", ...owner });
  if (division) return { db, session, principal, division, club: null, mayEdit, mayCreate };
  const list = await db
    .select({ id: divisions.id, name: divisions.name })
    .from(divisions)
    .where(eq(divisions.clubId, club!.id))
    .orderBy(asc(divisions.createdAt));
  return { db, session, principal, division: null, club: { ...club!, divisions: list }, mayEdit, mayCreate };
}
